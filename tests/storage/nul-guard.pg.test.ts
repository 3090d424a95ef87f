// The storage's refusal of NUL on PostgreSQL (storage/nul-guard.ts), on a real server: a statement whose parameters
// hold one is refused before it is sent, as the 400 every boundary maps, where PostgreSQL's own error (22021) became
// a 500; the digest counts the refusal as the record's fault. Text that only looks like an escape is kept as given.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { isAppError } from "../../src/core/errors";
import { createOrganization } from "../../src/core/organizations";
import { isDataError } from "../../src/digest/failures";
import { NUL_REFUSED_MESSAGE, parameterHoldsNul } from "../../src/storage/nul-guard";
import { freshPgDatabase } from "../helpers/pg";
import { type TestCore, testCore } from "../helpers/core";

test("a parameter holds a NUL in a string or in an array's element, at any depth; a buffer's or an object's do not count", () => {
  assert.equal(parameterHoldsNul("a\u0000b"), true);
  assert.equal(parameterHoldsNul(["ok", ["deeper", ["a\u0000"]]]), true);
  let deep: unknown = ["\u0000"];
  for (let i = 0; i < 100_000; i++) deep = [deep];
  assert.equal(parameterHoldsNul(deep), true, "no recursion to overflow");
  assert.equal(parameterHoldsNul("a\\u0000b"), false, "the six characters of an escape are text");
  assert.equal(parameterHoldsNul(Buffer.from([0, 1, 0])), false, "bytea holds any byte");
  // node-postgres sends an object as JSON, where NUL is the escape `\u0000`: text holds that.
  assert.equal(parameterHoldsNul({ a: "\u0000" }), false);
  for (const plain of ["", "ok", 1, 1n, null, undefined, true, new Date(0), ["a", "b"]]) assert.equal(parameterHoldsNul(plain), false, String(plain));
});

describe("PostgreSQL", () => {
  let t: TestCore;
  let drop: () => Promise<void>;
  before(async () => {
    const fresh = await freshPgDatabase(`nul_guard_${randomBytes(4).toString("hex")}`);
    drop = fresh.drop;
    t = await testCore({ dialect: "postgres", url: fresh.url });
  });
  after(async () => {
    await t?.close();
    await drop?.();
  });

  const refusal = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (err) {
      return err;
    }
    assert.fail("expected the statement to be refused");
  };

  test("a NUL in a name, a lookup or an array parameter is a bad request, never PostgreSQL's 22021; the connection goes on", async () => {
    const owner = await t.accounts.createUser({ email: "nul-owner@example.com", password: "password123", name: "Owner" });
    const errors = [
      await refusal(() => createOrganization(t.as(owner), { name: "Acme\u0000Corp" })),
      await refusal(() => t.store.getOrganizationBySlug("a\u0000b")),
      await refusal(() => sql`select ${["a", "b\u0000"]}::text[] as v`.execute(t.db.kysely)),
      await refusal(() => t.db.kysely.transaction().execute((tx) => tx.selectFrom("organizations").select("id").where("name", "=", "\u0000").execute())),
    ];
    for (const err of errors) {
      assert.ok(isAppError(err), String(err));
      assert.equal(err.code, "bad_request");
      assert.equal(err.message, NUL_REFUSED_MESSAGE);
      assert.equal(isDataError(err), true, "the digest sets such a record aside rather than waiting for the database");
    }
    // The same pool serves the next statements, in and out of a transaction.
    const org = await createOrganization(t.as(owner), { name: "Acme Corp" });
    assert.equal((await t.store.getOrganizationBySlug(org.slug))?.name, "Acme Corp");
  });

  test("text holding a backslash and u0000, and JSON with an escaped NUL, are stored as given", async () => {
    const owner = await t.accounts.createUser({ email: "nul-escape@example.com", password: "password123", name: "Owner" });
    const org = await createOrganization(t.as(owner), { name: "Escape \\u0000 Ltd" });
    assert.equal((await t.store.getOrganizationBySlug(org.slug))?.name, "Escape \\u0000 Ltd");
    const { rows } = await sql<{ v: string }>`select ${JSON.stringify({ a: "\u0000" })}::text as v`.execute(t.db.kysely);
    assert.deepEqual(JSON.parse(rows[0]!.v), { a: "\u0000" });
  });
});
