// Attachment blobs in tests of retention's sweep (issue 19): dating a stored blob back, as time passing would.
import fs from "node:fs/promises";
import path from "node:path";
import type { TestCore } from "./core";

/**
 * Dates a stored attachment blob back to `at` (the sweep's age): the file's modification time on SQLite, its chunks'
 * created_at on PostgreSQL (migration 0037). With `partial`, the file of a write cut off (`<key>.tmp`, SQLite only).
 */
export async function ageBlob(t: Pick<TestCore, "db">, key: string, at: Date, partial = false): Promise<void> {
  const dir = t.db.attachmentsDir;
  if (dir) await fs.utimes(path.join(dir, key.slice(0, 2), key + (partial ? ".tmp" : "")), at, at);
  else await t.db.kysely.updateTable("attachment_chunks").set({ created_at: at }).where("blob_key", "=", key).execute();
}
