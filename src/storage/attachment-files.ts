// Attachment blobs as files (SQLite installs): `attachments/` in the data dir, one file per blob, named by its key
// (hex characters and dashes only, checked) under a folder of its first two characters, so no folder grows past a
// few thousand files. A blob is written to a temporary name and renamed, so a file under its key is whole. As the
// spool: by default it survives a killed process (the kernel has the write); with `sync` (FAULTLINE_SPOOL_SYNC=full)
// the file and its folder are synced too, and it survives a power cut.
import { constants, createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { AttachmentBlobs } from "./attachment-ports";

const KEY = /^[0-9a-z][0-9a-z-]{1,199}$/;

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
    async remove(keys) {
      for (const key of keys) await fs.rm(fileOf(key), { force: true });
    },
  };
}

/** A blob file as a stream (downloads of large attachments); null when it is missing. */
export function openBlobStream(dir: string, key: string): NodeJS.ReadableStream | null {
  if (!KEY.test(key)) return null;
  return createReadStream(path.join(dir, key.slice(0, 2), key));
}
