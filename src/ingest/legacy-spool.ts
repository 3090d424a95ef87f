// Faultline's first spool was a SQLite file (`spool.sqlite3` in the data dir). Items in it that the digest had not
// reached when that version stopped are moved into the log once, at start, before anything else is accepted.
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import type { SpoolWriter } from "./spool";
import type { SpoolRecord } from "./spool-record";

export const legacySpoolFile = (dataDir: string) => path.join(dataDir, "spool.sqlite3");

type LegacyRow = Omit<SpoolRecord, "payload"> & { payload: Buffer };

/**
 * Appends the legacy spool's undigested rows (those after the position the digest saved for it) to `spool` in one
 * commit, then deletes the file. Returns how many rows moved. Interrupted before the delete, the next start moves
 * them again: events are stored once per id, other items may then be counted twice.
 */
export async function importLegacySpool(dataDir: string, spool: SpoolWriter, savedPosition: (spoolId: string) => Promise<number>): Promise<number> {
  const file = legacySpoolFile(dataDir);
  if (!existsSync(file)) return 0;
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  let rows: LegacyRow[];
  try {
    const id = (db.prepare("SELECT id FROM spool_identity").get() as { id: string } | undefined)?.id;
    const after = id ? await savedPosition(id) : 0;
    rows = db
      .prepare(
        "SELECT kind, project_id AS projectId, key_id AS keyId, received_at AS receivedAt, item_type AS itemType, event_id AS eventId, headers, meta, payload FROM spool WHERE id > ? ORDER BY id",
      )
      .all(after) as LegacyRow[];
  } finally {
    db.close();
  }
  const items = rows.filter((r) => r.kind === "item");
  const outcomes = rows.filter((r) => r.kind === "outcomes").flatMap((r) => JSON.parse(r.payload.toString("utf8")));
  if (outcomes.length > 0) spool.count(outcomes);
  await spool.append(items.map(({ kind: _kind, ...entry }) => entry));
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  return rows.length;
}
