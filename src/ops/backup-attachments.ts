// Attachment files in a backup (issue 19): the staging files of uploads not digested yet (`attachments/incoming/`),
// copied with the spool, before the database, since spool records name them; and, on SQLite, the stored attachments
// (`attachments/<xx>/<key>`), copied after the database, so every row the copy holds finds its file (a file is
// written before its row and removed after it). A file that goes meanwhile was digested or deleted: skipped.
// PostgreSQL keeps stored attachments in the database (attachment_chunks), so its dump holds them.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

/** Names a backup may hold under attachments/ (restore.ts unpacks only these). */
export const ATTACHMENT_ENTRY = /^attachments(\/incoming(\/[0-9a-f-]{36}\.gz)?|\/[0-9a-z]{2}(\/[0-9a-z][0-9a-z-]{1,199})?)?$/;

/** Copies `attachments/incoming` ("staged") or the stored files ("stored") from `dataDir` into `into`; the entries copied. */
export function copyAttachmentFiles(dataDir: string, into: string, which: "staged" | "stored"): string[] {
  const root = path.join(dataDir, "attachments");
  if (!existsSync(root)) return [];
  const folders = which === "staged" ? ["incoming"] : readdirSync(root).filter((d) => d !== "incoming" && /^[0-9a-z]{2}$/.test(d));
  const copied: string[] = [];
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(path.join(root, folder));
    } catch {
      continue;
    }
    for (const name of names) {
      const entry = `attachments/${folder}/${name}`;
      if (!ATTACHMENT_ENTRY.test(entry)) continue; // a temporary file being written
      mkdirSync(path.join(into, "attachments", folder), { recursive: true });
      try {
        copyFileSync(path.join(root, folder, name), path.join(into, entry));
        copied.push(entry);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    }
  }
  return copied;
}
