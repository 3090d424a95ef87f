// A full disk outside the intake (hostile input #7's other half): SQLite on a real file system with no room left (a
// small tmpfs mounted by the test; CI runs as root). A write fails as SQLITE_FULL, never as the "cannot rollback"
// that took its place; reads go on, a token still authenticates though its last use cannot be recorded, the database
// opens again (a server must start to say the disk is full), the web API answers 503 with Retry-After and a message,
// a form its message inline, and GET /api/health still answers 200 but says `storage: "full"` since when; once space
// is freed, writes work again without a restart, and the health says "ok" once a write is seen to succeed.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { createOrganization } from "../../src/core/organizations";
import { authenticateOrgToken, createOrgToken } from "../../src/core/org-tokens";
import { authenticateToken, createToken } from "../../src/core/tokens";
import { closeServices } from "../../src/runtime/services";
import { openDb } from "../../src/storage/db";
import { isStorageFull, STORAGE_FULL_MESSAGE } from "../../src/storage/storage-full";
import { toErrorResponse } from "../../src/web/api/errors";
import { runAction } from "../../src/web/actions/result";
import { type TestCore, testCore, uniq } from "../helpers/core";
import { fill, mountTmpfs, unmountTmpfs } from "../helpers/full-disk";

/** GET /api/health as the route answers it: its services on a database of their own (elsewhere than the full disk). */
async function health(): Promise<{ status: number; body: Record<string, unknown> }> {
  const { GET } = await import("../../src/app/api/health/route");
  const res = await GET();
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("hostile input #7: a full disk under the database", () => {
  let mount: string;
  let t: TestCore;
  let file: string;
  let servicesDir: string;

  before(async () => {
    servicesDir = mkdtempSync(path.join(tmpdir(), "faultline-health-"));
    process.env.FAULTLINE_DATA_DIR = servicesDir;
    process.env.FAULTLINE_SECRET_KEY = randomBytes(24).toString("hex");
    delete process.env.DATABASE_URL;
    mount = mountTmpfs("faultline-dbfull-", "24m");
    file = path.join(mount, "faultline.sqlite3");
    t = await testCore({ dialect: "sqlite", file });
  });
  after(async () => {
    await closeServices();
    rmSync(servicesDir, { recursive: true, force: true });
    await t.close();
    unmountTmpfs(mount);
  });

  test("writes fail as SQLITE_FULL and are answered as such; reads, tokens and opening go on; writes work again once space is freed", async () => {
    const owner = await t.accounts.createUser({ email: `${uniq("full")}@example.com`, password: "password123", name: "Owner", isSuperuser: false });
    const ctx = t.as(owner);
    const org = await createOrganization(ctx, { name: uniq("Org") });
    const personal = await createToken(ctx, { name: "ci", scopes: ["org:read"] });
    const orgToken = await createOrgToken(ctx, org.slug, { name: "CI" }, "http://localhost:9000");
    assert.deepEqual(await health(), { status: 200, body: { status: "ok", storage: "ok" } }, "no write has met a full disk");
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

      // The health answers 200 (reads go on: a load balancer keeps the node) and says what the writes met.
      const full = await health();
      assert.equal(full.status, 200);
      assert.equal(full.body.status, "ok");
      assert.equal(full.body.storage, "full", JSON.stringify(full.body));
      assert.ok(Date.parse(String(full.body.storageSince)) <= Date.now(), `since when: ${String(full.body.storageSince)}`);
      assert.match(String(full.body.storageDetail), /the disk is full/);

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
    assert.equal((await health()).body.storage, "full", "no write seen to succeed yet: still full (nothing probes the disk)");
    await authenticateToken(t.store, personal.plaintext);
    assert.ok((await t.store.listTokens(owner.id))[0]!.lastUsedAt, "and a token's next use is recorded");
    assert.deepEqual(await health(), { status: 200, body: { status: "ok", storage: "ok" } }, "a write succeeded: the health says so");
  });
});
