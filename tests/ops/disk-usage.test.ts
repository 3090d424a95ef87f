// The data dir's disk usage on real data dirs and databases: each kind counted where it lives (the SQLite file, the
// uploaded source files inside it, the spool, an attachments folder, the rest), PostgreSQL's pg_database_size(); one
// sample a day in disk-usage.json and the growth over the last seven; a missing data dir and a sample that cannot be
// written are messages on the page, not failures.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { instanceDiskUsage } from "../../src/core/disk-usage";
import { diskProbe } from "../../src/ops/disk-probe";
import { type DiskSample, growthOf, readSamples, recordSample } from "../../src/ops/disk-samples";
import { measureDiskUsage } from "../../src/ops/disk-usage";
import { testCore } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";

const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "faultline-disk-"));
  dirs.push(d);
  return d;
};
after(() => {
  for (const d of dirs) {
    chmodSync(d, 0o700);
    rmSync(d, { recursive: true, force: true });
  }
});

test("each kind is counted where it lives: database, uploaded files in it, spool, attachments, other; with the free disk", async () => {
  const dir = newDir();
  const t = await testCore({ dialect: "sqlite", file: path.join(dir, "faultline.sqlite3") });
  const owner = await t.accounts.createUser({ email: "o@example.com", password: "password123", name: "O" });
  const org = await t.store.createOrganization({ slug: "org", name: "Org", ownerUserId: owner.id });
  await t.db.kysely
    .insertInto("upload_chunks")
    .values({ organization_id: org.id, checksum: "c".repeat(40), data: randomBytes(300_000), size: 300_000, created_at: new Date().toISOString() })
    .execute();
  mkdirSync(path.join(dir, "spool"));
  writeFileSync(path.join(dir, "spool", "seg"), randomBytes(200_000));
  mkdirSync(path.join(dir, "attachments"));
  writeFileSync(path.join(dir, "attachments", "a"), randomBytes(50_000));
  writeFileSync(path.join(dir, "secret.key"), "k".repeat(64));
  const u = await measureDiskUsage(dir, t.db);
  assert.equal(u.dialect, "sqlite");
  assert.equal(u.bytes.artifacts, 300_000);
  assert.ok(u.bytes.database > 0);
  assert.equal(u.bytes.spool, 200_000);
  assert.equal(u.bytes.attachments, 50_000);
  assert.ok(u.bytes.other >= 64, `other: ${u.bytes.other}`); // the secret key, the WAL's index
  assert.ok(u.freeBytes > 0 && u.totalBytes >= u.freeBytes);
  await t.close();
});

test("one sample a day, 30 kept; growth over the last 7 samples and days left = free / growth", () => {
  const dir = newDir();
  const usage = (total: number) => ({
    dialect: "sqlite" as const,
    bytes: { database: total, artifacts: 0, spool: 0, attachments: 0, other: 0 },
    freeBytes: 1_000_000,
    totalBytes: 2_000_000,
  });
  for (let day = 0; day < 40; day++) {
    const now = new Date(Date.UTC(2026, 9, 1 + day, 12));
    recordSample(dir, usage(day * 1000), now);
    recordSample(dir, usage(day * 1000 + 999), now); // the same day again: kept as the first
  }
  const samples = readSamples(dir);
  assert.equal(samples.length, 30);
  assert.deepEqual([samples.at(-1)?.day, samples.at(-1)?.total], ["2026-11-09", 39_000]);
  assert.deepEqual(growthOf(samples, 1_000_000), { bytesPerDay: 1000, daysLeft: 1000, samples: 7 });
  const flat: DiskSample[] = [samples[0]!, { ...samples[0]!, day: "2026-12-01" }];
  assert.deepEqual(growthOf(flat, 5), { bytesPerDay: 0, daysLeft: null, samples: 2 });
  assert.deepEqual(growthOf(samples.slice(0, 1), 5), { bytesPerDay: null, daysLeft: null, samples: 1 });
});

test("a missing data dir, and a sample that cannot be written, are said on the page", async () => {
  const t = await testCore();
  const su = await t.accounts.createUser({ email: "su@example.com", password: "password123", name: "SU", isSuperuser: true });
  const missing = await instanceDiskUsage(t.as(su), diskProbe(path.join(newDir(), "gone"), t.db));
  assert.equal(missing.status, "unavailable");
  assert.match(missing.status === "unavailable" ? missing.reason : "", /the data dir .*gone is missing/);
  if (process.getuid?.() !== 0) {
    const dir = newDir();
    chmodSync(dir, 0o500); // as a full disk: the sample cannot be written
    const view = await instanceDiskUsage(t.as(su), diskProbe(dir, t.db));
    assert.equal(view.status, "measured");
    assert.match(view.status === "measured" ? (view.sampleError ?? "") : "", /EACCES/);
  }
  await t.close();
});

test("on PostgreSQL the database is pg_database_size()", async () => {
  const pg = await freshPgDatabase(`faultline_disk_${randomBytes(4).toString("hex")}`);
  try {
    const t = await testCore({ dialect: "postgres", url: pg.url });
    const u = await measureDiskUsage(newDir(), t.db);
    assert.equal(u.dialect, "postgres");
    assert.ok(u.bytes.database > 1_000_000, `database: ${u.bytes.database}`);
    assert.ok(u.bytes.artifacts > 0); // the tables' own pages, empty or not
    await t.close();
  } finally {
    await pg.drop();
  }
});
