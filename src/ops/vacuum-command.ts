// `faultline vacuum`: returns the space deleted rows left behind and prints the database's size before and after
// (ops/vacuum.ts says how, on SQLite and on PostgreSQL).
import { existsSync } from "node:fs";
import type { Config } from "../config/env";
import { type Db, dbOptionsFromConfig, openDb } from "../storage/db";
import { postgresBytes, VacuumError, vacuumPostgres, vacuumSqlite } from "./vacuum";

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

/** SQLite's busy and full-disk errors said plainly; anything else as it is. */
function sqliteFailure(err: unknown, file: string): unknown {
  const code = (err as { code?: string }).code ?? "";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
    return new VacuumError(`${file} is busy (Faultline is writing to it): stop Faultline and run \`faultline vacuum\` again`);
  if (code.startsWith("SQLITE_FULL") || code.startsWith("SQLITE_IOERR"))
    return new VacuumError(
      `VACUUM of ${file} stopped: the disk is full or failed (${code}); the database is as it was. Free space in the data dir and in SQLite's temporary directory (SQLITE_TMPDIR), then run it again`,
    );
  return err;
}

export async function runVacuum(config: Config, print: (line: string) => void): Promise<void> {
  const options = dbOptionsFromConfig(config);
  if (options.dialect === "sqlite") {
    const file = options.file;
    if (!existsSync(file)) throw new VacuumError(`there is no database at ${file} (FAULTLINE_DATA_DIR): nothing to vacuum`);
    let db: Db | null = null;
    try {
      db = openDb(options);
      const r = await vacuumSqlite(db, file);
      print(`faultline: ${r.mode === "full" ? "VACUUM" : "incremental vacuum"} of ${file}: ${mib(r.before)} before, ${mib(r.after)} after`);
      if (r.converted) print("faultline: the database now uses auto_vacuum=INCREMENTAL: the server returns freed space weekly, in small steps");
    } catch (err) {
      throw sqliteFailure(err, file);
    } finally {
      await db?.close();
    }
    return;
  }
  const db = openDb(options);
  try {
    const before = await postgresBytes(db);
    const tables = await vacuumPostgres(db);
    print(
      `faultline: VACUUM (ANALYZE) of ${tables.length} tables (${tables.join(", ")}): the database is ${mib(before)} before, ${mib(await postgresBytes(db))} after`,
    );
    print(
      "faultline: PostgreSQL reuses the space of deleted rows but keeps it in its files; only VACUUM FULL returns it to the operating system, and it locks each table while it runs: run it yourself in a quiet hour (not done here)",
    );
  } finally {
    await db.close();
  }
}
