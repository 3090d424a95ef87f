// Retention's sweep of attachment blobs on a SQLite install (issue 19): files under `attachments/` in a real data dir.
// Partial writes (`<key>.tmp`) past the grace go; names Faultline does not write there (other names, other folders,
// links, the intake's `incoming/` staging folder, the rest of the data dir) are never touched however old; a pass
// sweeps a bounded number of files and the next pass goes on where it stopped, then wraps around.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { sweepBlobsStep } from "../../src/digest/blob-sweep";
import { writeBatch } from "../../src/digest/commit";
import { RetentionJob, retentionSettings } from "../../src/digest/retention";
import { ATTACHMENT_LIMITS } from "../../src/config/limits";
import { ageBlob } from "../helpers/blobs";
import { type TestCore, testCore } from "../helpers/core";

const hex = () => crypto.randomUUID().replace(/-/g, "");
const past = () => new Date(Date.now() - ATTACHMENT_LIMITS.blobSweepGraceMs - 60_000);

async function withDataDir(work: (t: TestCore, dataDir: string, store: string) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "faultline-sweep-"));
  const t = await testCore({ dialect: "sqlite", file: path.join(dataDir, "faultline.sqlite3") });
  try {
    assert.equal(t.db.attachmentsDir, path.join(dataDir, "attachments"));
    await work(t, dataDir, t.db.attachmentsDir!);
  } finally {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Sweeps the whole store in steps of `limit`, as of now; returns what it removed. */
async function sweepAll(t: TestCore, limit = 3): Promise<number> {
  let removed = 0;
  for (let cursor: string | null = ""; cursor !== null; ) {
    const r = await sweepBlobsStep(t.store.attachmentBlobs, t.store, cursor, limit, Date.now() - ATTACHMENT_LIMITS.blobSweepGraceMs);
    removed += r.removed;
    cursor = r.next;
  }
  return removed;
}

test("issue 19 sweep on files: partial writes past the grace go, a young one stays, and nothing Faultline did not write is touched", async () => {
  await withDataDir(async (t, dataDir, store) => {
    const blobs = t.store.attachmentBlobs;
    const at = past();
    const old = (file: string, body = "x") => {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, body);
      utimesSync(file, at, at);
    };
    // A whole blob of a key with a partial write left beside it (a batch written again, cut off), and an old partial
    // write of a key never stored whole; a partial write of now (a digest writing it right now).
    const named = hex();
    await blobs.write(named, new Uint8Array([1]));
    const owner = await t.accounts.createUser({ email: "a@example.com", password: "password123", name: "A" });
    const org = await t.store.createOrganization({ slug: "o", name: "O", ownerUserId: owner.id });
    const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: "p", name: "P", platform: null });
    const attachment = { name: "a.txt", contentType: "text/plain", attachmentType: "event.attachment" as const, codec: "gzip" as const };
    const row = { ...attachment, projectId: p.id, eventId: hex(), blobKey: named, size: 1, storedSize: 1, sha1: "0".repeat(40), receivedAt: at.toISOString() };
    await writeBatch(t.store, { spoolId: "s", position: 1, events: [], rawItems: [], outcomes: [], attachments: [row] });
    await ageBlob(t, named, at);
    const stale = hex();
    const young = hex();
    old(path.join(store, named.slice(0, 2), `${named}.tmp`));
    old(path.join(store, stale.slice(0, 2), `${stale}.tmp`));
    mkdirSync(path.join(store, young.slice(0, 2)), { recursive: true });
    writeFileSync(path.join(store, young.slice(0, 2), `${young}.tmp`), "y");

    // What Faultline did not write in the store, all old: names that are not keys, a key in the wrong folder, a
    // `.tmp` of a name that is not a key, folders that are not two characters, a folder and a link named like keys,
    // a file where a folder would be, and the intake's staging files. Beside the store, the rest of the data dir.
    const strays = [
      path.join(store, "ab", "README"),
      path.join(store, "ab", "ab.txt"),
      path.join(store, "ab", "AB0123"),
      path.join(store, "ab", `cd${hex()}`),
      path.join(store, "ab", "ab%.tmp"),
      path.join(store, "ab", ".tmp"),
      path.join(store, "AB", `AB${hex()}`),
      path.join(store, "abc", `abc${hex()}`),
      path.join(store, "incoming", `${crypto.randomUUID()}.gz`),
      path.join(store, "incoming", `in${hex()}`),
      path.join(store, "notes.txt"),
      path.join(dataDir, "spool", `ab${hex()}`),
      path.join(dataDir, "other", "ab", `ab${hex()}`),
    ];
    for (const file of strays) old(file);
    // A file named like a folder: a folder name no key of this test has (a key's random first two characters made "ef"
    // a folder once, in 1 run out of 85).
    const fileLikeFolder = path.join(store, ["ef", "fe", "ee", "ff"].find((n) => ![named, stale, young].some((k) => k.startsWith(n)))!);
    old(fileLikeFolder);
    const folderLikeKey = path.join(store, "ab", `ab${hex()}`);
    mkdirSync(folderLikeKey);
    utimesSync(folderLikeKey, at, at);
    const target = path.join(dataDir, "precious");
    old(target, "keep me");
    const link = path.join(store, "ab", `ab${hex()}`);
    symlinkSync(target, link);

    assert.equal(await sweepAll(t), 1 + 1, "the two old partial writes");
    assert.equal(existsSync(path.join(store, named.slice(0, 2), `${named}.tmp`)), false, "an old partial write of a named blob goes");
    assert.equal(existsSync(path.join(store, stale.slice(0, 2), `${stale}.tmp`)), false, "an old partial write of no blob goes");
    assert.equal(existsSync(path.join(store, young.slice(0, 2), `${young}.tmp`)), true, "a partial write of now stays");
    assert.deepEqual([...(await blobs.read(named))!], [1], "the named blob stays whole");
    for (const file of [...strays, fileLikeFolder, folderLikeKey, link, target]) assert.equal(existsSync(file), true, `${path.relative(dataDir, file)} stays`);
  });
});

test("issue 19 sweep on files: a pass sweeps a bounded number of blobs, the next goes on where it stopped and wraps around", async () => {
  await withDataDir(async (t) => {
    const blobs = t.store.attachmentBlobs;
    const orphans = Array.from({ length: 10 }, () => hex()).sort();
    for (const k of orphans) {
      await blobs.write(k, new Uint8Array([5]));
      await ageBlob(t, k, past());
    }
    let now = Date.now();
    const lines: string[] = [];
    const settings = { ...retentionSettings(90), blobSweepPerStep: 3, blobSweepStepsPerPass: 2, passIntervalMs: 60_000 };
    const job = new RetentionJob(
      t.store,
      settings,
      (l) => lines.push(l),
      () => now,
    );
    const pass = async () => {
      while (await job.step());
      now += settings.passIntervalMs;
    };
    const left = async () => (await blobs.listBlobs("", 100)).blobs.map((b) => b.key);

    await pass();
    assert.deepEqual(await left(), orphans.slice(6), "two steps of three: the first six in key order");
    assert.match(lines.at(-1)!, / 6 attachment blobs no attachment named, /);
    // Written now, before the cursor: left for the wrap-around, and young anyway.
    const early = `00${hex()}`;
    await blobs.write(early, new Uint8Array([6]));
    await pass();
    assert.deepEqual(await left(), [early], "the next pass went on after the sixth and reached the end");
    assert.match(lines.at(-1)!, / 4 attachment blobs no attachment named, /);
    await ageBlob(t, early, past());
    await pass();
    assert.deepEqual(await left(), [], "the pass after wrapped around to the start");
    assert.equal(lines.length, 3);
  });
});
