// The spool backlog the metrics report, on a real spool: records left from before a start are counted from the
// segment files (frame headers only), new commits as they are written, and both leave the count as the digest passes.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { SpoolBacklog } from "../../src/ingest/spool-backlog";
import { SpoolReader, SpoolWriter } from "../../src/ingest/spool";

const dir = mkdtempSync(path.join(tmpdir(), "faultline-backlog-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const entry = (receivedAt: number, n: number) => ({
  projectId: 1,
  keyId: 1,
  receivedAt,
  itemType: "event",
  eventId: String(n).padStart(32, "0"),
  headers: "{}",
  meta: "{}",
  payload: Buffer.from(`{"n":${n}}`),
});

test("records before the start, records since, and the digest's progress", async () => {
  const hourAgo = Date.now() - 3600_000;
  const first = SpoolWriter.open(dir, "normal");
  await first.append([entry(hourAgo, 1), entry(hourAgo + 1000, 2), entry(hourAgo + 2000, 3)]);
  first.close();

  const reader = SpoolReader.open(dir);
  const rows = reader.read(0, 100);
  reader.close();
  assert.equal(rows.length, 3);

  // Restarted with the digest's saved position after the first record.
  const spool = SpoolWriter.open(dir, "normal", rows[0]!.id);
  spool.digested(rows[0]!.id);
  const backlog = new SpoolBacklog(spool, dir, rows[0]!.id);
  const now = hourAgo + 3600_000;
  let f = backlog.figures(now);
  assert.equal(f.records, 2);
  assert.equal(f.seconds, 3599);
  assert.equal(f.bytes, rows[2]!.id - rows[0]!.id);
  assert.equal(f.segments, 1);

  await spool.append([entry(now - 10, 4)]);
  f = backlog.figures(now);
  assert.equal(f.records, 3);
  assert.equal(f.bytes, spool.end - rows[0]!.id);

  // The digest passes what was there before the start: only the new commit is left, and its age is its own.
  spool.digested(rows[2]!.id);
  backlog.digested(rows[2]!.id);
  f = backlog.figures(now);
  assert.equal(f.records, 1);
  assert.equal(f.seconds, 0.01);

  spool.digested(spool.end);
  backlog.digested(spool.end);
  assert.deepEqual(backlog.figures(now), { records: 0, bytes: 0, seconds: 0, segments: 1 });
  spool.close();
});
