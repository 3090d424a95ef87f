// Files of multipart uploads (the attachment and minidump endpoints) go to disk as they arrive, never into memory
// whole: each is hashed and gzipped into a staging file in `attachments/incoming/` in the data dir, and the spool
// record that carries it names the file (its `staged` header) instead of holding its bytes. The file is written and
// closed (and synced with FAULTLINE_SPOOL_SYNC=full) before its record is appended, so whatever the SDK is answered
// 200 for is on disk, and survives a restart before the digest: the digest moves the file into the attachment store
// (storage/attachment-files.ts) or copies it into PostgreSQL and deletes it after its batch commits.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { ATTACHMENT_LIMITS } from "../config/limits";
import { ProtocolError } from "../protocol/errors";

export const stagingDir = (dataDir: string) => path.join(dataDir, "attachments", "incoming");

/** A staged file: its path, bytes as sent and as stored, SHA-1, and its first bytes (a minidump's header). */
export type StagedFile = { file: string; name: string; size: number; storedSize: number; sha1: string; head: Buffer };

/** Staging names are UUIDs: the digest refuses any other name in a record (a record names no path of its own). */
export const STAGED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.gz$/;

const HEAD_BYTES = 64 * 1024;

/**
 * Streams `source` into a new staging file (gzip), refusing it past `maxBytes` (413: the file is removed and the
 * source drained by the caller). `budget.left` is what the request may still stage; it is reduced as bytes arrive.
 */
export async function stageStream(dir: string, source: Readable, maxBytes: number, sync: boolean, budget: { left: number }): Promise<StagedFile> {
  await fs.promises.mkdir(dir, { recursive: true });
  const name = `${randomUUID()}.gz`;
  const file = path.join(dir, name);
  const hash = createHash("sha1");
  const heads: Buffer[] = [];
  let size = 0;
  let headSize = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.byteLength;
      budget.left -= chunk.byteLength;
      if (size > maxBytes) return done(new ProtocolError("payload_too_large", `an attachment is larger than ${maxBytes} bytes`));
      if (budget.left < 0)
        return done(new ProtocolError("payload_too_large", `the attachments are larger than ${ATTACHMENT_LIMITS.maxRequestBytes} bytes together`));
      hash.update(chunk);
      if (headSize < HEAD_BYTES) {
        heads.push(chunk.subarray(0, HEAD_BYTES - headSize));
        headSize += Math.min(chunk.byteLength, HEAD_BYTES - headSize);
      }
      done(null, chunk);
    },
  });
  const out = fs.createWriteStream(file, { flags: "wx" });
  try {
    await pipeline(source, tap, zlib.createGzip({ level: ATTACHMENT_LIMITS.gzipLevel }), out);
    if (sync) {
      const fd = await fs.promises.open(file, "r");
      await fd.sync().finally(() => fd.close());
    }
  } catch (err) {
    await fs.promises.rm(file, { force: true });
    throw err;
  }
  const storedSize = (await fs.promises.stat(file)).size;
  return { file, name, size, storedSize, sha1: hash.digest("hex"), head: Buffer.concat(heads) };
}

/** Removes staging files a refused request left (its spool records were never written). */
export async function discardStaged(files: StagedFile[]): Promise<void> {
  await Promise.all(files.map((f) => fs.promises.rm(f.file, { force: true })));
}
