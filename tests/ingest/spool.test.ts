// The spool's log on disk: records read back as written, whole records only, torn tails cut at restart, segments
// rolled over and deleted behind the digest, and a log that always continues past the digest's saved position.
import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import SQLite from "better-sqlite3";
import { SPOOL_LIMITS } from "../../src/config/limits";
import { importLegacySpool, legacySpoolFile } from "../../src/ingest/legacy-spool";
import { SpoolReader, SpoolWriter, type SpoolEntry } from "../../src/ingest/spool";

const root = mkdtempSync(path.join(tmpdir(), "faultline-spool-"));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => path.join(root, `spool-${++n}`);
const segments = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".log"))
    .sort();

const entry = (bytes: number, over: Partial<SpoolEntry> = {}): SpoolEntry => ({
  projectId: 1,
  keyId: 2,
  receivedAt: 1_700_000_000_123,
  itemType: "event",
  eventId: crypto.randomUUID().replace(/-/g, ""),
  headers: '{"type":"event"}',
  meta: "{}",
  payload: Buffer.alloc(bytes, 0x61),
  ...over,
});

/** A fresh spool with a writer and a reader, both closed afterwards (the test may swap in a reopened writer). */
async function withSpool(body: (s: { dir: string; writer: SpoolWriter; reader: SpoolReader; reopen: (resumeAfter?: number) => SpoolWriter }) => Promise<void>) {
  const dir = freshDir();
  let writer = SpoolWriter.open(dir, "normal");
  const reader = SpoolReader.open(dir);
  const reopen = (resumeAfter = 0) => {
    writer.close();
    writer = SpoolWriter.open(dir, "normal", resumeAfter);
    return writer;
  };
  try {
    await body({ dir, writer, reader, reopen });
  } finally {
    reader.close();
    writer.close();
  }
}

describe("spool log", () => {
  test("records read back field for field; ids are the offsets just past each record, and reading resumes after one", () =>
    withSpool(async ({ writer, reader }) => {
      const written = [
        entry(10, { projectId: 123456789012, keyId: 7, eventId: null, itemType: "session", meta: '{"ua":"Grüße ✓"}' }),
        entry(0, { headers: '{"type":"attachment","filename":"ä.txt"}' }),
        entry(5000),
      ];
      await writer.append(written);
      writer.count([{ projectId: 1, hour: "2026-11-23T09:00:00.000Z", category: "error", outcome: "filtered", reason: "x", quantity: 2 }]);
      await writer.append([]);
      const rows = reader.read(0, 100);
      assert.equal(rows.length, 4);
      for (const [i, e] of written.entries()) {
        const { id: _id, kind, payload, ...fields } = rows[i]!;
        const { payload: expected, ...expectedFields } = e;
        assert.equal(kind, "item");
        assert.deepEqual(fields, expectedFields);
        assert.deepEqual(Buffer.from(payload), expected);
      }
      assert.equal(rows[3]!.kind, "outcomes");
      assert.equal(JSON.parse(Buffer.from(rows[3]!.payload).toString()).at(0).quantity, 2);
      assert.ok(rows.every((r, i) => i === 0 || r.id > rows[i - 1]!.id));
      assert.equal(rows.at(-1)!.id, writer.end);
      assert.deepEqual(
        reader.read(rows[1]!.id, 100).map((r) => r.id),
        rows.slice(2).map((r) => r.id),
      );
      assert.equal(reader.read(writer.end, 100).length, 0);
    }));

  test("a batch ends at the row that reaches the byte budget, and always holds at least one row", () =>
    withSpool(async ({ writer, reader }) => {
      await writer.append([entry(1000), entry(1000), entry(1000), entry(5000), entry(1000)]);
      assert.equal(reader.read(0, 100).length, 5);
      assert.equal(reader.read(0, 100, 2500).length, 3, "1000 + 1000 + 1000 reaches 2500 at the third row");
      assert.equal(reader.read(0, 2, 2500).length, 2, "the row limit still applies");
      const ids = reader.read(0, 100).map((r) => r.id);
      assert.deepEqual(
        reader.read(ids[2]!, 100, 10).map((r) => r.payload.byteLength),
        [5000],
        "one row, though larger than the budget",
      );
      assert.equal(reader.read(ids[4]!, 100, 10).length, 0);
    }));

  test("a torn record is never read, and a restart cuts it off so that the log goes on after the whole records", () =>
    withSpool(async ({ dir, writer, reader, reopen }) => {
      await writer.append([entry(100), entry(100)]);
      const whole = writer.end;
      const file = path.join(dir, segments(dir)[0]!);
      // A crash in the middle of a write: the frame of a 150-byte body, then only part of it.
      appendFileSync(file, Buffer.concat([Buffer.from([150, 0, 0, 0, 1, 2, 3, 4]), Buffer.alloc(40, 7)]));
      assert.equal(reader.read(0, 100).length, 2, "reading stops before the torn record");
      const restarted = reopen();
      assert.equal(statSync(file).size, whole, "the torn bytes are gone");
      await restarted.append([entry(300)]);
      assert.deepEqual(
        reader.read(0, 100).map((r) => r.payload.byteLength),
        [100, 100, 300],
      );
      assert.equal(restarted.id, reader.id, "the identity survives the restart");
    }));

  test("segments roll over past their size, reading crosses them, and the digest's progress deletes the old ones", () =>
    withSpool(async ({ dir, writer, reader }) => {
      const mib = 1024 * 1024;
      const count = Math.ceil(SPOOL_LIMITS.segmentBytes / mib) + 2;
      for (let i = 0; i < count; i++) await writer.append([entry(mib, { receivedAt: i })]);
      assert.equal(segments(dir).length, 2);
      let position = 0;
      const seen: number[] = [];
      for (let rows = reader.read(0, 7); rows.length > 0; rows = reader.read(position, 7)) {
        seen.push(...rows.map((r) => r.receivedAt));
        position = rows.at(-1)!.id;
      }
      assert.deepEqual(
        seen,
        Array.from({ length: count }, (_, i) => i),
        "every record once, in order, across the boundary",
      );
      const before = writer.backlogBytes;
      assert.ok(before > count * mib);
      writer.digested(Number(segments(dir)[1]!.slice(0, 16)));
      assert.equal(segments(dir).length, 1, "the first segment lies wholly behind the position and is deleted");
      assert.ok(writer.backlogBytes < before);
      writer.digested(writer.end);
      assert.equal(writer.backlogBytes, 0);
      assert.equal(segments(dir).length, 1, "the segment being written stays");
    }));

  test("the log continues past the digest's saved position, even when the file ends before it", () =>
    withSpool(async ({ dir, writer, reader, reopen }) => {
      await writer.append([entry(100)]);
      // As after a power cut with "normal" durability: the digest saved a position the file no longer reaches.
      const saved = writer.end + 5000;
      await reopen(saved).append([entry(200)]);
      assert.deepEqual(
        reader.read(saved, 100).map((r) => r.payload.byteLength),
        [200],
      );
      assert.equal(segments(dir).length, 2);
    }));

  test("past a record that never became whole in an older segment, reading goes on in the next segment", () =>
    withSpool(async ({ dir, writer, reader, reopen }) => {
      await writer.append([entry(100)]);
      await reopen(writer.end + 1000).append([entry(300)]);
      // As a write that failed half way before the log moved to a new segment: junk after the whole records.
      appendFileSync(path.join(dir, segments(dir)[0]!), Buffer.alloc(50, 9));
      assert.deepEqual(
        reader.read(0, 100).map((r) => r.payload.byteLength),
        [100, 300],
      );
    }));

  test("the backlog grows with each commit and shrinks when the digest reports its position", () =>
    withSpool(async ({ writer, reader }) => {
      await writer.append([entry(1000), entry(1000)]);
      const first = writer.backlogBytes;
      assert.ok(first >= 2000 && first < 2400, `${first} bytes: the payloads and their fields`);
      await writer.append([entry(1000)]);
      const ids = reader.read(0, 100).map((r) => r.id);
      writer.digested(ids[1]!);
      assert.equal(writer.backlogBytes, writer.end - ids[1]!);
      writer.digested(ids[2]!);
      assert.equal(writer.backlogBytes, 0);
    }));

  test("the first spool's undigested rows (a SQLite file) move into the log once, and the file goes", async () => {
    const dataDir = freshDir();
    mkdirSync(dataDir);
    const legacy = new SQLite(legacySpoolFile(dataDir));
    legacy.exec(`CREATE TABLE spool (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, project_id INTEGER NOT NULL,
      key_id INTEGER NOT NULL, received_at INTEGER NOT NULL, item_type TEXT NOT NULL, event_id TEXT, headers TEXT NOT NULL,
      meta TEXT NOT NULL, payload BLOB NOT NULL); CREATE TABLE spool_identity (id TEXT NOT NULL);`);
    legacy.prepare("INSERT INTO spool_identity (id) VALUES ('old-spool')").run();
    const insert = legacy.prepare(
      "INSERT INTO spool (kind, project_id, key_id, received_at, item_type, event_id, headers, meta, payload) VALUES (?, 3, 4, 5, ?, ?, '{}', '{}', ?)",
    );
    insert.run("item", "event", "a".repeat(32), Buffer.from('{"digested":true}'));
    insert.run("item", "event", "b".repeat(32), Buffer.from('{"digested":false}'));
    insert.run(
      "outcomes",
      "outcomes",
      null,
      Buffer.from(JSON.stringify([{ projectId: 3, hour: "h", category: "error", outcome: "filtered", reason: "r", quantity: 1 }])),
    );
    legacy.close();
    const dir = path.join(dataDir, "spool");
    const writer = SpoolWriter.open(dir, "normal");
    const reader = SpoolReader.open(dir);
    try {
      const moved = await importLegacySpool(dataDir, writer, async (id) => (id === "old-spool" ? 1 : 0));
      assert.equal(moved, 2, "the rows after the digest's saved position 1");
      const rows = reader.read(0, 100);
      assert.deepEqual(
        rows.map((r) => [r.kind, r.eventId, r.projectId]),
        [
          ["item", "b".repeat(32), 3],
          ["outcomes", null, 0],
        ],
      );
      assert.equal(existsSync(legacySpoolFile(dataDir)), false);
      assert.equal(await importLegacySpool(dataDir, writer, async () => 0), 0, "once only");
    } finally {
      reader.close();
      writer.close();
    }
  });
});
