// What the main test server's database holds for a release's uploads, read from its SQLite file (the upload specs).
import path from "node:path";
import SQLite from "better-sqlite3";
import { SERVERS } from "./servers";

/** What the main server's database holds for a release: its bundles and their files' debug ids by type. */
export function storedFor(projectSlug: string, version: string): { bundles: number; files: { url: string; type: string | null; debug_id: string | null }[] } {
  const db = new SQLite(path.join(SERVERS.main.dataDir, "faultline.sqlite3"), { readonly: true, fileMustExist: true });
  try {
    const where = "FROM artifact_bundle_links l JOIN projects p ON p.id = l.project_id WHERE p.slug = ? AND l.release = ?";
    const bundles = (db.prepare(`SELECT count(DISTINCT l.bundle_id) AS n ${where}`).get(projectSlug, version) as { n: number }).n;
    const files = db
      .prepare(`SELECT f.url, f.type, f.debug_id FROM artifact_files f WHERE f.bundle_id IN (SELECT l.bundle_id ${where}) ORDER BY f.url`)
      .all(projectSlug, version) as { url: string; type: string | null; debug_id: string | null }[];
    return { bundles, files };
  } finally {
    db.close();
  }
}
