// Attachment blobs as files (SQLite installs): `attachments/` in the data dir, one file per blob, named by its key
// (hex characters and dashes only, checked) under a folder of its first two characters, so no folder grows past a
// few thousand files. A blob is written to a temporary name and renamed, so a file under its key is whole. As the
// spool: by default it survives a killed process (the kernel has the write); with `sync` (FAULTLINE_SPOOL_SYNC=full)
// the file and its folder are synced too, and it survives a power cut. Retention's sweep walks the two-character
// folders in name order (listBlobs), a bounded number of files per call, and passes over any name that is not a key
// or `<key>.tmp`: what Faultline did not write here (and `incoming/`, the intake's staging folder) is never touched.
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { ATTACHMENT_LIMITS } from "../config/limits";
import type { AttachmentBlobs, StoredBlob } from "./attachment-ports";

const KEY = /^[0-9a-z][0-9a-z-]{1,199}$/;
const FOLDER = /^[0-9a-z]{2}$/;
const PARTIAL = ".tmp";

/** The blob a file name in `folder` is, or null for a name Faultline does not write there. */
function blobOf(folder: string, name: string): { key: string; partial: boolean } | null {
  const partial = name.endsWith(PARTIAL);
  const key = partial ? name.slice(0, -PARTIAL.length) : name;
  return KEY.test(key) && key.startsWith(folder) ? { key, partial } : null;
}

const gone = (err: unknown) => ["ENOENT", "ENOTDIR"].includes((err as NodeJS.ErrnoException).code ?? "");

/** The names in a folder; null when it is gone. */
async function namesIn(folder: string): Promise<string[] | null> {
  try {
    return await fs.readdir(folder);
  } catch (err) {
    if (gone(err)) return null;
    throw err;
  }
}

/** When a blob file was last written; null when it is gone or not a plain file (a folder, a link: not written here). */
async function modifiedAt(file: string): Promise<number | null> {
  try {
    const stat = await fs.lstat(file);
    return stat.isFile() ? stat.mtimeMs : null;
  } catch (err) {
    if (gone(err)) return null;
    throw err;
  }
}

export function fileBlobs(dir: string, sync = false): AttachmentBlobs {
  function fileOf(key: string): string {
    if (!KEY.test(key)) throw new RangeError(`not an attachment blob key: ${JSON.stringify(key.slice(0, 50))}`);
    return path.join(dir, key.slice(0, 2), key);
  }

  async function syncDir(folder: string): Promise<void> {
    if (!sync) return;
    const handle = await fs.open(folder, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  return {
    async write(key, data) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.tmp`;
      const handle = await fs.open(tmp, "w");
      try {
        await handle.writeFile(data);
        if (sync) await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(tmp, file);
      await syncDir(path.dirname(file));
    },
    async adopt(key, staged) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.rename(staged, file);
      // A rename keeps the staging file's time: the blob is dated when it came into the store, as a write is (the sweep).
      const now = new Date();
      await fs.utimes(file, now, now);
      await syncDir(path.dirname(file));
      return true;
    },
    async has(key) {
      try {
        await fs.access(fileOf(key));
        return true;
      } catch {
        return false;
      }
    },
    async read(key) {
      try {
        return await fs.readFile(fileOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    async stream(key) {
      const file = fileOf(key);
      if ((await modifiedAt(file)) === null) return null;
      // Opened at the first read, not before: an answer whose body is never read (a HEAD) holds no file, and one left
      // midway closes it. Once open, the file stays readable to the end even if retention removes it meanwhile.
      return (async function* () {
        const handle = await fs.open(file, "r");
        try {
          for (;;) {
            const piece = Buffer.allocUnsafe(ATTACHMENT_LIMITS.chunkBytes);
            const { bytesRead } = await handle.read(piece, 0, piece.byteLength, null);
            if (bytesRead === 0) return;
            yield piece.subarray(0, bytesRead);
          }
        } finally {
          await handle.close();
        }
      })();
    },
    async remove(keys) {
      for (const key of keys) await fs.rm(fileOf(key), { force: true });
    },
    async listBlobs(after, limit) {
      const blobs: StoredBlob[] = [];
      const folders = ((await namesIn(dir)) ?? []).filter((f) => FOLDER.test(f) && f >= after.slice(0, 2)).sort();
      let looked = 0;
      let last = after;
      for (const folder of folders) {
        const names = (await namesIn(path.join(dir, folder))) ?? [];
        for (const name of names.filter((n) => n > after).sort()) {
          const blob = blobOf(folder, name);
          if (!blob) continue;
          if (looked >= limit) return { blobs, next: last };
          looked++;
          last = name;
          const writtenAt = await modifiedAt(path.join(dir, folder, name));
          if (writtenAt !== null) blobs.push({ ...blob, writtenAt });
        }
      }
      return { blobs, next: null };
    },
    async sweepBlobs(blobs, before) {
      let removed = 0;
      for (const blob of blobs) {
        const file = fileOf(blob.key) + (blob.partial ? PARTIAL : "");
        const writtenAt = await modifiedAt(file);
        if (writtenAt === null || writtenAt >= before) continue;
        await fs.rm(file, { force: true });
        removed++;
      }
      return removed;
    },
  };
}
