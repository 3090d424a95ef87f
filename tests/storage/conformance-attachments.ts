// Attachments (issue 19, migration 0030), run by conformance.ts on each dialect: rows written in the digest's batch
// transaction (once, however often the batch is written), their blobs in the dialect's store (files beside the SQLite
// database, chunks in PostgreSQL: one port, one suite), listed per event, and deleted with their blobs by retention
// (by age, and once their event is gone), by deleting the project, and not before a missing event's grace has passed.
// Retention's sweep: blobs listed in order after a cursor with their age, those past the grace that no row names
// removed, a named or young one never, one written again after it was listed neither.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ATTACHMENT_LIMITS } from "../../src/config/limits";
import { sweepBlobsStep } from "../../src/digest/blob-sweep";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { NewAttachment } from "../../src/storage/attachment-ports";
import type { User } from "../../src/storage/ports";
import { ageBlob } from "../helpers/blobs";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

const hex = () => crypto.randomUUID().replace(/-/g, "");

function event(projectId: number, receivedAt = new Date().toISOString()): DigestedEvent {
  return {
    projectId,
    eventId: hex(),
    type: "error",
    receivedAt,
    timestamp: receivedAt,
    platform: "native",
    level: "fatal",
    title: "Minidump",
    message: "",
    culprit: "",
    release: null,
    environment: null,
    size: 2,
    data: "{}",
    category: "error",
    grouping: { config: "c", hashes: [hex()] },
    metadata: "{}",
    userKey: null,
    tags: [],
  };
}

const row = (projectId: number, eventId: string, blobKey: string, receivedAt = new Date().toISOString()): NewAttachment => ({
  projectId,
  eventId,
  blobKey,
  name: "crash.dmp",
  contentType: "application/octet-stream",
  attachmentType: "event.minidump",
  size: 5,
  storedSize: 25,
  codec: "gzip",
  sha1: "a".repeat(40),
  receivedAt,
});

export function attachmentConformance(get: () => Fixture) {
  async function setup() {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("att"), name: "Att", ownerUserId: alice.id });
    const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("native"), name: "Native", platform: null });
    return { t, org, p };
  }
  const batch = (parts: Partial<Parameters<typeof writeBatch>[1]>) => ({
    spoolId: uniq("spool"),
    position: 1,
    rawItems: [],
    outcomes: [],
    events: [],
    ...parts,
  });

  test("issue 19 attachments: blobs written, replaced, read, adopted from a file and removed", async () => {
    const { t } = get();
    const blobs = t.store.attachmentBlobs;
    const key = `k${hex()}`;
    assert.equal(await blobs.read(key), null);
    assert.equal(await blobs.has(key), false);
    const big = new Uint8Array(ATTACHMENT_LIMITS.chunkBytes * 3 + 17).map((_, i) => i % 251);
    await blobs.write(key, big);
    assert.deepEqual(new Uint8Array((await blobs.read(key))!), big, "several chunks read back in order");
    const pieces: Uint8Array[] = [];
    for await (const piece of (await blobs.stream(key))!) pieces.push(piece);
    assert.deepEqual(new Uint8Array(Buffer.concat(pieces)), big, "streamed in order");
    assert.ok(pieces.length >= 4 && pieces.every((p) => p.byteLength <= ATTACHMENT_LIMITS.chunkBytes), "streamed a chunk at a time");
    const paged = new Uint8Array(ATTACHMENT_LIMITS.chunkBytes * ATTACHMENT_LIMITS.streamPageChunks * 2 + 5).map((_, i) => (i * 7) % 253);
    await blobs.write(`${key}p`, paged);
    const streamed: Uint8Array[] = [];
    for await (const piece of (await blobs.stream(`${key}p`))!) streamed.push(piece);
    assert.deepEqual(new Uint8Array(Buffer.concat(streamed)), paged, "over several pages of chunks");
    assert.equal(await blobs.stream(`${key}missing`), null, "a missing blob streams as null");
    const left = (await blobs.stream(`${key}p`))![Symbol.asyncIterator]();
    await left.next();
    await left.return?.();
    await blobs.remove([`${key}p`]);
    await blobs.write(key, new Uint8Array([1, 2]));
    assert.deepEqual([...(await blobs.read(key))!], [1, 2], "written again, replaced whole");
    await blobs.write(`${key}e`, new Uint8Array(0));
    assert.equal((await blobs.read(`${key}e`))?.byteLength, 0, "an empty blob is a blob");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "faultline-adopt-")), "staged.gz");
    writeFileSync(file, Buffer.from("staged bytes"));
    await blobs.adopt(`${key}f`, file);
    assert.equal((await blobs.read(`${key}f`))?.toString(), "staged bytes");
    await blobs.remove([key, `${key}e`, `${key}f`, `${key}missing`]);
    assert.equal(await blobs.has(key), false);
    assert.equal(await blobs.read(`${key}f`), null);
  });

  test("issue 19 attachments: rows stored once per blob key in the batch, listed per event, outcomes in bytes", async () => {
    const { t, p } = await setup();
    const e = event(p.id);
    const key = `r${hex()}`;
    await t.store.attachmentBlobs.write(key, new Uint8Array([1]));
    await writeBatch(t.store, batch({ events: [e], attachments: [row(p.id, e.eventId, key)] }));
    await writeBatch(t.store, batch({ attachments: [row(p.id, e.eventId, key)] }));
    const listed = await t.store.listAttachments(p.id, e.eventId);
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.size, 5);
    assert.equal(listed[0]!.attachmentType, "event.minidump");
    assert.deepEqual(await t.store.getAttachment(p.id, e.eventId, listed[0]!.id), listed[0]);
    assert.equal(await t.store.getAttachment(p.id, hex(), listed[0]!.id), null, "another event's id names nothing");
    assert.deepEqual([...(await t.store.readAttachmentBlob(key))!], [1]);
    const totals = await t.store.outcomeTotals(p.id, "2000-01-01T00:00:00Z");
    assert.equal(
      totals.filter((o) => o.category === "attachment" && o.outcome === "accepted").reduce((n, o) => n + o.quantity, 0),
      10,
      "two batches counted 5 bytes each (outcomes count what arrived)",
    );
  });

  test("issue 19 attachments: retention deletes them by age and once their event is gone (after the grace), with their blobs", async () => {
    const { t, p } = await setup();
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const stale = new Date(Date.now() - ATTACHMENT_LIMITS.orphanGraceMs - 60_000).toISOString();
    const kept = event(p.id);
    const keys = { aged: `a${hex()}`, orphan: `o${hex()}`, young: `y${hex()}`, kept: `k${hex()}` };
    for (const k of Object.values(keys)) await t.store.attachmentBlobs.write(k, new Uint8Array([7]));
    await writeBatch(
      t.store,
      batch({
        events: [kept],
        attachments: [
          row(p.id, hex(), keys.aged, old),
          row(p.id, hex(), keys.orphan, stale),
          row(p.id, hex(), keys.young),
          row(p.id, kept.eventId, keys.kept, stale),
        ],
      }),
    );
    while ((await t.store.pruneAttachmentsBefore(new Date(Date.now() - 30 * 86_400_000).toISOString(), 1000)) > 0);
    assert.equal(await t.store.attachmentBlobs.has(keys.aged), false, "past the cutoff");
    let cursor = 0;
    for (;;) {
      const r = await t.store.pruneOrphanAttachments(cursor, 2, new Date(Date.now() - ATTACHMENT_LIMITS.orphanGraceMs).toISOString());
      if (r.lastId === cursor) break;
      cursor = r.lastId;
    }
    assert.equal(await t.store.attachmentBlobs.has(keys.orphan), false, "its event never came, the grace has passed");
    assert.equal(await t.store.attachmentBlobs.has(keys.young), true, "its event may still come");
    assert.equal(await t.store.attachmentBlobs.has(keys.kept), true, "its event is stored");
    assert.equal((await t.store.listAttachments(p.id, kept.eventId)).length, 1);
  });

  test("issue 19 attachments: deleting the project deletes its attachments' blobs", async () => {
    const { t, p } = await setup();
    const e = event(p.id);
    const key = `d${hex()}`;
    await t.store.attachmentBlobs.write(key, new Uint8Array([3]));
    await writeBatch(t.store, batch({ events: [e], attachments: [row(p.id, e.eventId, key)] }));
    assert.equal(await t.store.deleteProject(p.id), true);
    assert.equal(await t.store.attachmentBlobs.has(key), false);
  });

  test("issue 19 attachments: the sweep removes blobs no row names past the grace, keeps named and young ones, and resumes across steps", async () => {
    const { t, p } = await setup();
    const blobs = t.store.attachmentBlobs;
    const past = new Date(Date.now() - ATTACHMENT_LIMITS.blobSweepGraceMs - 60_000);
    const e = event(p.id);
    const keys = { named: `n${hex()}`, young: `y${hex()}`, orphans: Array.from({ length: 5 }, () => `o${hex()}`) };
    for (const k of [keys.named, keys.young, ...keys.orphans]) await blobs.write(k, new Uint8Array([9]));
    await writeBatch(t.store, batch({ events: [e], attachments: [row(p.id, e.eventId, keys.named)] }));
    for (const k of [keys.named, ...keys.orphans]) await ageBlob(t, k, past);
    assert.deepEqual(await t.store.namedBlobKeys([keys.named, keys.young, keys.orphans[0]!]), new Set([keys.named]));
    assert.deepEqual(await t.store.namedBlobKeys([]), new Set());

    // Two at a time: every blob is listed once, in order, across steps, and the steps reach the end.
    const whole = (await blobs.listBlobs("", 10_000)).blobs.map((b) => b.key);
    assert.equal(new Set(whole).size, whole.length);
    assert.deepEqual(whole, [...whole].sort(), "key order");
    const listed = (await blobs.listBlobs("", 10_000)).blobs.find((b) => b.key === keys.orphans[0]);
    assert.ok(listed && Math.abs(listed.writtenAt - past.getTime()) < 2000 && !listed.partial, "listed with when it was written");
    const stepped: string[] = [];
    for (let cursor: string | null = ""; cursor !== null; ) {
      const r: Awaited<ReturnType<typeof blobs.listBlobs>> = await blobs.listBlobs(cursor, 2);
      assert.ok(r.blobs.length <= 2);
      stepped.push(...r.blobs.map((b) => b.key));
      cursor = r.next;
    }
    assert.deepEqual(stepped, whole, "steps of two resume where the last stopped");

    let removed = 0;
    let steps = 0;
    for (let cursor: string | null = ""; cursor !== null; steps++) {
      const r = await sweepBlobsStep(blobs, t.store, cursor, 2, Date.now() - ATTACHMENT_LIMITS.blobSweepGraceMs);
      removed += r.removed;
      cursor = r.next;
    }
    assert.ok(steps >= 4, `more blobs than one step holds (${steps} steps)`);
    assert.equal(removed, 5, "the five orphans (every other blob of this suite is younger than the grace)");
    for (const k of keys.orphans) assert.equal(await blobs.has(k), false, "an orphan past the grace is removed");
    assert.equal(await blobs.has(keys.named), true, "a blob a row names stays, however old");
    assert.equal(await blobs.has(keys.young), true, "a young blob stays: its batch may be committing");
    assert.deepEqual([...(await t.store.readAttachmentBlob(keys.named))!], [9]);
  });

  test("issue 19 attachments: the sweep leaves a blob written again after it was listed, and one gone meanwhile is no error", async () => {
    const { t } = get();
    const blobs = t.store.attachmentBlobs;
    const past = new Date(Date.now() - ATTACHMENT_LIMITS.blobSweepGraceMs - 60_000);
    const again = `w${hex()}`;
    const gone = `g${hex()}`;
    for (const k of [again, gone]) {
      await blobs.write(k, new Uint8Array([1]));
      await ageBlob(t, k, past);
    }
    const listed = (await blobs.listBlobs("", 10_000)).blobs.filter((b) => b.key === again || b.key === gone);
    assert.equal(listed.length, 2);
    await blobs.write(again, new Uint8Array([2]));
    await blobs.remove([gone]);
    assert.equal(await blobs.sweepBlobs(listed, Date.now() - ATTACHMENT_LIMITS.blobSweepGraceMs), 0);
    assert.deepEqual([...(await blobs.read(again))!], [2], "a digest wrote it again: it stays whole");
    assert.equal(await blobs.sweepBlobs([], Date.now()), 0);
  });
}
