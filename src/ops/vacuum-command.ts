// `faultline vacuum`: returns the space deleted rows left behind and prints the database's size before and after
// (ops/vacuum.ts says how, on SQLite and on PostgreSQL).
import { existsSync } from "node:fs";
import type { Config } from "../config/env";
import { dbOptionsFromConfig, openDb } from "../storage/db";
import { postgresBytes, VacuumError, vacuumPostgres, vacuumSqlite } from "./vacuum";

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

export async function runVacuum(config: Config, print: (line: string) => void): Promise<void> {
  const options = dbOptionsFromConfig(config);
  if (options.dialect === "sqlite" && !existsSync(options.file)) throw new VacuumError(`there is no database at ${options.file} (FAULTLINE_DATA_DIR): nothing to vacuum`);
  const db = openDb(options);
  try {
    if (options.dialect === "sqlite") {
      const r = await vacuumSqlite(db, options.file);
      print(`faultline: ${r.mode === "full" ? "VACUUM" : "incremental vacuum"} of ${options.file}: ${mib(r.before)} before, ${mib(r.after)} after`);
      if (r.converted) print("faultline: the database now uses auto_vacuum=INCREMENTAL: the server returns freed space weekly, in small steps");
      return;
    }
    const before = await postgresBytes(db);
    const tables = await vacuumPostgres(db);
    print(`faultline: VACUUM (ANALYZE) of ${tables.length} tables (${tables.join(", ")}): the database is ${mib(before)} before, ${mib(await postgresBytes(db))} after`);
    print("faultline: PostgreSQL reuses the space of deleted rows but keeps it in its files; only VACUUM FULL returns it to the operating system, and it locks each table while it runs: run it yourself in a quiet hour (not done here)");
  } finally {
    await db.close();
  }
}
