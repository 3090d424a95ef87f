// The spool file itself: the writer never checkpoints (that is the digest's job, off the intake's thread), and the
// reader's batches stop at a byte budget so large events never pile up in the digest's memory.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { SpoolReader, SpoolWriter, type SpoolEntry } from "../../src/ingest/spool";

const dir = mkdtempSync(path.join(tmpdir(), "faultline-spool-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const entry = (bytes: number): SpoolEntry => ({
  projectId: 1,
  keyId: 1,
  receivedAt: Date.now(),
  itemType: "event",
  eventId: crypto.randomUUID().replace(/-/g, ""),
  headers: '{"type":"event"}',
  meta: "{}",
  payload: Buffer.alloc(bytes, 0x61),
});

describe("spool", () => {
  test("the writer leaves checkpoints to the reader: its log grows past SQLite's automatic 1000 pages until one", async () => {
    const file = path.join(dir, "log.sqlite3");
    const writer = SpoolWriter.open(file, "normal");
    const reader = SpoolReader.open(file);
    try {
      for (let i = 0; i < 8; i++) await writer.append(Array.from({ length: 16 }, () => entry(64 * 1024)));
      const wal = statSync(`${file}-wal`).size;
      assert.ok(wal > 6 * 1024 * 1024, `the log holds all 8 MiB written (${wal} bytes): no automatic checkpoint on the intake's thread`);
      const { logFrames, checkpointedFrames } = reader.checkpoint();
      assert.ok(logFrames > 1000, `${logFrames} frames in the log`);
      assert.equal(checkpointedFrames, logFrames, "a passive checkpoint with no reader in the way copies the whole log");
    } finally {
      reader.close();
      writer.close();
    }
  });

  test("a batch ends at the row that reaches the byte budget, and always holds at least one row", async () => {
    const file = path.join(dir, "batches.sqlite3");
    const writer = SpoolWriter.open(file, "normal");
    const reader = SpoolReader.open(file);
    try {
      await writer.append([entry(1000), entry(1000), entry(1000), entry(5000), entry(1000)]);
      assert.equal(reader.read(0, 100).length, 5);
      assert.equal(reader.read(0, 100, 2500).length, 3, "1000 + 1000 + 1000 reaches 2500 at the third row");
      assert.equal(reader.read(0, 2, 2500).length, 2, "the row limit still applies");
      const first = reader.read(0, 100)[0]!.id;
      assert.deepEqual(reader.read(first + 2, 100, 10).map((r) => r.payload.byteLength), [5000], "one row, though larger than the budget");
      assert.equal(reader.read(first + 4, 100, 10).length, 0);
    } finally {
      reader.close();
      writer.close();
    }
  });
});
