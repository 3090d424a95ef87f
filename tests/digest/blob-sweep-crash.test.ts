// Attachments end to end (issue 19), on SQLite and on a real PostgreSQL: spooled events with attachments digested by the
// real loop, then a retention pass killed between deleting old attachments' rows and removing their blobs (the blob
// store fails there, as a process ended at that point would leave it). The next process's retention, an hour and more
// later, sweeps the blobs no row names; every blob left is named by a row, and the kept attachments read back whole.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, test } from "node:test";
import { ATTACHMENT_LIMITS } from "../../src/config/limits";
import { runDigestLoop } from "../../src/digest/loop";
import { RetentionJob, retentionSettings } from "../../src/digest/retention";
import { SpoolReader, SpoolWriter } from "../../src/ingest/spool";
import type { AttachmentBlobs } from "../../src/storage/attachment-ports";
import { attachmentStore } from "../../src/storage/kysely/attachments";
import { testCore } from "../helpers/core";
import { dialects } from "../storage/retention-fixtures";

const DAY = 86_400_000;

/** Every stored blob's key (the store's own listing). */
async function storedKeys(blobs: AttachmentBlobs): Promise<string[]> {
  const keys: string[] = [];
  for (let cursor: string | null = ""; cursor !== null; ) {
    const r: Awaited<ReturnType<AttachmentBlobs["listBlobs"]>> = await blobs.listBlobs(cursor, 100);
    keys.push(...r.blobs.map((b) => b.key));
    cursor = r.next;
  }
  return keys;
}

for (const [dialect, fresh] of Object.entries(dialects)) {
  describe(`attachments on ${dialect}`, () => {
    test("a retention pass killed between the rows' delete and the blobs' leaves orphans that a later pass sweeps: no blob is left unnamed", async () => {
      const f = await fresh();
      const t = await testCore(f.options);
      const dir = mkdtempSync(path.join(tmpdir(), "faultline-sweep-crash-"));
      const writer = SpoolWriter.open(path.join(dir, "spool"), "normal");
      const reader = SpoolReader.open(path.join(dir, "spool"));
      try {
        const owner = await t.accounts.createUser({ email: "owner@example.com", password: "password123", name: "Owner" });
        const org = await t.store.createOrganization({ slug: "org", name: "Org", ownerUserId: owner.id });
        const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: "native", name: "Native", platform: "native" });
        const now = Date.now();
        const old = now - 100 * DAY;
        const record = (n: number, at: number, itemType: string, headers: object, payload: Buffer) => ({
          kind: "item" as const,
          projectId: p.id,
          keyId: 1,
          receivedAt: at,
          itemType,
          eventId: (n + 1).toString(16).padStart(32, "0"),
          headers: JSON.stringify(headers),
          meta: "{}",
          payload,
        });
        const event = (n: number, at: number) =>
          record(n, at, "event", {}, Buffer.from(JSON.stringify({ message: `crash ${n}`, timestamp: at / 1000, platform: "native" })));
        const attachment = (n: number, at: number) =>
          record(n, at, "attachment", { filename: `log-${n}.txt`, content_type: "text/plain" }, Buffer.from(`log of crash ${n}\n`.repeat(50)));
        // Four events of 100 days ago and three of now, each with an attachment.
        const spans = [0, 1, 2, 3].map((n) => [n, old] as const).concat([4, 5, 6].map((n) => [n, now] as const));
        await writer.append(spans.flatMap(([n, at]) => [event(n, at), attachment(n, at)]));

        const lines: string[] = [];
        const log = (l: string) => lines.push(l);
        let position = 0;
        const end = reader.read(0, 100).at(-1)!.id;
        await runDigestLoop({ spool: reader, store: t.store, onPosition: (at) => (position = at), log, stopped: () => position === end });
        const before = await storedKeys(t.store.attachmentBlobs);
        assert.equal(before.length, 7, "a blob per attachment");
        assert.deepEqual(await t.store.namedBlobKeys(before), new Set(before));

        // The pass is killed once the old attachments' rows are deleted, before their blobs are removed.
        const crashing: AttachmentBlobs = {
          ...t.store.attachmentBlobs,
          remove: async () => {
            throw new Error("the process ended here");
          },
        };
        const crashed = { ...t.store, ...attachmentStore({ db: t.db.kysely, dialect: t.db.dialect }, crashing), attachmentBlobs: crashing };
        const settings = retentionSettings(90);
        const first = new RetentionJob(crashed, settings, log, () => now);
        while (await first.step());
        assert.ok(
          lines.some((l) => l.includes("retention step (attachments) failed: the process ended here")),
          lines.join(" | "),
        );
        const named = await t.store.namedBlobKeys(before);
        assert.equal(named.size, 3, "the old attachments' rows are gone");
        assert.equal((await storedKeys(t.store.attachmentBlobs)).length, 7, "their blobs are left, named by nothing");

        // Another process, started later: its first pass within the grace leaves them, one after it sweeps them.
        let later = now + settings.passIntervalMs + 1000;
        const second = new RetentionJob(t.store, settings, log, () => later);
        while (await second.step());
        assert.equal((await storedKeys(t.store.attachmentBlobs)).length, 7, "within the grace the blobs stay");
        later = now + ATTACHMENT_LIMITS.blobSweepGraceMs + settings.passIntervalMs;
        while (await second.step());
        const after = await storedKeys(t.store.attachmentBlobs);
        assert.deepEqual(after.sort(), [...named].sort(), "no orphan is left, and every named blob stays");
        assert.match(lines.at(-1)!, / 4 attachment blobs no attachment named, /);
        for (const [n] of spans.slice(4)) {
          const [a] = await t.store.listAttachments(p.id, (n + 1).toString(16).padStart(32, "0"));
          assert.ok(a, `attachment ${n} kept`);
          assert.equal(gunzipSync((await t.store.readAttachmentBlob(a.blobKey))!).toString(), `log of crash ${n}\n`.repeat(50));
        }
      } finally {
        reader.close();
        writer.close();
        await t.close();
        await f.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
