// SQLite transactions begin IMMEDIATE (src/storage/db.ts): a transaction of the web process that reads and then
// writes while another process (the digest) holds the write lock waits for it and then goes on, instead of failing
// at once with "database is locked" (seen as a 500 of the user-feedback API on a busy machine). Two real
// processes on one database file: a child takes the write lock, writes and commits a moment later; meanwhile the
// parent runs a read-then-write transaction through Faultline's own Kysely setup.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import { test } from "node:test";
import { openDb } from "../../src/storage/db";
import { migrateToLatest } from "../../src/storage/migrate";

const HOLDER = `
const SQLite = require("better-sqlite3");
const db = new SQLite(process.argv[1]);
db.pragma("busy_timeout = 5000");
db.exec("BEGIN IMMEDIATE");
db.prepare("INSERT INTO organizations (slug, name, created_at) VALUES ('digest', 'Digest', '2026-11-28T00:00:00Z')").run();
process.stdout.write("locked\\n");
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
db.exec("COMMIT");
db.close();
`;

test("a read-then-write transaction waits for another process's write lock instead of failing", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-tx-"));
  const file = path.join(dir, "faultline.sqlite3");
  const db = openDb({ dialect: "sqlite", file });
  try {
    await migrateToLatest(db);
    const child = spawn(process.execPath, ["-e", HOLDER, file], { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] });
    const [chunk] = (await once(child.stdout!, "data")) as [Buffer];
    assert.equal(chunk.toString().trim(), "locked");
    // The child holds the write lock now, and commits its row in ~400 ms.
    const seen = await db.kysely.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("organizations").select("slug").execute();
      await trx.insertInto("organizations").values({ slug: "web", name: "Web", created_at: "2026-11-28T00:00:01Z" }).execute();
      return before.map((r) => r.slug);
    });
    const [code] = (await once(child, "exit")) as [number];
    assert.equal(code, 0);
    // The transaction began after the child's commit, so it read the child's row: it ran on current data.
    assert.ok(seen.includes("digest"), `read ${seen.join(", ")}`);
    const all = (await db.kysely.selectFrom("organizations").select("slug").execute()).map((r) => r.slug);
    assert.ok(all.includes("digest") && all.includes("web"), all.join(", "));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
