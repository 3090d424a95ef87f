// A full disk outside the intake (hostile input #7's other half): SQLite on a real file system with no room left (a
// small tmpfs mounted by the test; CI runs as root). A write fails as SQLITE_FULL, never as the "cannot rollback"
// that took its place; reads go on, a token still authenticates though its last use cannot be recorded, the database
// opens again (a server must start to say the disk is full), the web API answers 503 with Retry-After and a message,
// a form its message inline; once space is freed, writes work again without a restart.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { createOrganization } from "../../src/core/organizations";
import { authenticateOrgToken, createOrgToken } from "../../src/core/org-tokens";
import { authenticateToken, createToken } from "../../src/core/tokens";
import { openDb } from "../../src/storage/db";
import { isStorageFull, STORAGE_FULL_MESSAGE } from "../../src/storage/storage-full";
import { toErrorResponse } from "../../src/web/api/errors";
import { runAction } from "../../src/web/actions/result";
import { type TestCore, testCore, uniq } from "../helpers/core";
import { fill, mountTmpfs, unmountTmpfs } from "../helpers/full-disk";

describe("hostile input #7: a full disk under the database", () => {
  let mount: string;
  let t: TestCore;
  let file: string;

  before(async () => {
    mount = mountTmpfs("faultline-dbfull-", "24m");
    file = path.join(mount, "faultline.sqlite3");
    t = await testCore({ dialect: "sqlite", file });
  });
  after(async () => {
    await t.close();
    unmountTmpfs(mount);
  });

  test("writes fail as SQLITE_FULL and are answered as such; reads, tokens and opening go on; writes work again once space is freed", async () => {
    const owner = await t.accounts.createUser({ email: `${uniq("full")}@example.com`, password: "password123", name: "Owner", isSuperuser: false });
    const ctx = t.as(owner);
    const org = await createOrganization(ctx, { name: uniq("Org") });
    const personal = await createToken(ctx, { name: "ci", scopes: ["org:read"] });
    const orgToken = await createOrgToken(ctx, org.slug, { name: "CI" }, "http://localhost:9000");
    // Write the WAL back into the database and empty it: with no room in its file either, every write needs new space.
    await sql`pragma wal_checkpoint(truncate)`.execute(t.db.kysely);
    const filler = fill(mount);
    try {
      const failed = await createOrganization(ctx, { name: uniq("Org") }).then(
        () => null,
        (err: unknown) => err,
      );
      assert.ok(failed, "a write on a full disk fails");
      assert.ok(isStorageFull(failed), `as SQLITE_FULL, not what a rollback said after it: ${String(failed)}`);

      const answer = toErrorResponse(failed);
      assert.equal(answer.status, 503);
      assert.equal(answer.headers.get("retry-after"), "30");
      assert.deepEqual(await answer.json(), { detail: STORAGE_FULL_MESSAGE });
      const form = await runAction(
        () => createOrganization(ctx, { name: uniq("Org") }).then(() => undefined),
        (key) => (key === "storageFull" ? "the disk is full" : key),
      );
      assert.deepEqual(form, { status: "error", message: "the disk is full" }, "a form shows it inline");
      const untranslated = await runAction(() => createOrganization(ctx, { name: uniq("Org") }).then(() => undefined));
      assert.deepEqual(untranslated, { status: "error", message: STORAGE_FULL_MESSAGE }, "in English where the form has no catalogue");

      assert.equal((await t.store.getOrganizationBySlug(org.slug))?.slug, org.slug, "reads go on");
      // A token's first use records it (a write): the request goes on without the record.
      assert.equal((await authenticateToken(t.store, personal.plaintext))?.user.id, owner.id, "a personal token authenticates");
      assert.ok(await authenticateOrgToken(t.store, orgToken.plaintext), "an organization token authenticates");
      assert.equal((await t.store.listTokens(owner.id))[0]!.lastUsedAt, null, "its use could not be recorded");

      const again = openDb({ dialect: "sqlite", file });
      try {
        assert.equal((await again.kysely.selectFrom("organizations").select("slug").where("slug", "=", org.slug).executeTakeFirst())?.slug, org.slug);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(filler);
    }
    assert.ok(await createOrganization(ctx, { name: uniq("Org") }), "space freed: writes work again");
    await authenticateToken(t.store, personal.plaintext);
    assert.ok((await t.store.listTokens(owner.id))[0]!.lastUsedAt, "and a token's next use is recorded");
  });
});
