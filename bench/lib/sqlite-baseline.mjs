// This machine's bare SQLite write rate, measured in the same run as the digest for a ratio that survives a noisy
// machine: rows of the 5 KB browser error's JSON inserted into a table with a unique (project, event id) index, 500
// per transaction, WAL with synchronous=NORMAL as Faultline opens its database. No parsing, grouping or issues.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";

export function bareInsertRate(payload, seconds = 3) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "faultline-bench-sqlite-"));
  const db = new SQLite(path.join(dir, "bare.sqlite3"));
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.exec("CREATE TABLE events (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL, event_id TEXT NOT NULL, received_at TEXT NOT NULL, data TEXT NOT NULL)");
    db.exec("CREATE UNIQUE INDEX events_project_event ON events (project_id, event_id)");
    const insert = db.prepare("INSERT INTO events (project_id, event_id, received_at, data) VALUES (1, ?, ?, ?)");
    const batch = db.transaction((n) => {
      for (let i = 0; i < n; i++) insert.run(randomBytes(16).toString("hex"), new Date().toISOString(), payload);
    });
    let rows = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < seconds * 1000) {
      batch(500);
      rows += 500;
    }
    return rows / ((performance.now() - t0) / 1000);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
