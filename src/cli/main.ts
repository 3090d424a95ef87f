// The `faultline` command: start, worker, migrate, createuser, createtoken, backup, restore, vacuum, doctor. Non-interactive, for scripts and automation.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config/env";
import { isAppError } from "../core/errors";
import { DigestLockedError } from "../digest/lock";
import { builtBasePath, distDirOf } from "../server/build-info";
import { MigrationError } from "../storage/migrate";
import { UsageError } from "./usage-error";

const USAGE = `Usage: faultline <command> [options]

Commands:
  start                                   migrate the database, then serve Faultline on PORT (default 9000)
  worker                                  digest the spool in FAULTLINE_DATA_DIR in this process, until SIGTERM;
                                          for a server started with FAULTLINE_DIGEST=external (exit 3: the spool
                                          is already being digested)
  migrate                                 apply pending database migrations and exit
  createuser --email E --password P [--name N] [--superuser] --no-input
                                          create a user (superusers administer the whole install)
  createtoken --email E [--name N] [--scope S]... [--expires YYYY-MM-DD]
                                          print a new personal API token for that user, alone on stdout; with each
                                          --scope given (Sentry's, e.g. project:releases), else with full access
  backup FILE                             write a backup of this install to FILE (a .tar.gz), while it runs: the
                                          database, the secret key and the spool (PostgreSQL: needs pg_dump)
  restore FILE [--force]                  put a backup back into FAULTLINE_DATA_DIR and the database, with Faultline
                                          stopped; refuses a data dir or database in use unless --force
  vacuum                                  return the space of deleted rows: SQLite shrinks its file (the first time a
                                          full VACUUM, which needs free disk about the database's size); PostgreSQL
                                          runs VACUUM (ANALYZE) on its largest tables
  doctor                                  check the configuration, database, migrations, disk, spool, clock and
                                          public URL; print what is wrong and how to fix it (exit 1 if anything is)

Configuration comes from the environment: PORT, HOST, FAULTLINE_URL, FAULTLINE_DATA_DIR, DATABASE_URL,
FAULTLINE_SECRET_KEY, FAULTLINE_TRUST_PROXY, FAULTLINE_DIGEST, FAULTLINE_RETENTION_DAYS, FAULTLINE_CHUNK_UPLOAD_ACCEPT,
FAULTLINE_METRICS_TOKEN, FAULTLINE_METRICS_ADDRESS (see README.md).`;

/** Exit status when the spool is already being digested: a supervisor should not restart at once. */
const EXIT_LOCKED = 3;

/** The package root: dist/cli.mjs lives one folder below it. */
const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const isOpsError = (err: unknown): boolean => err instanceof Error && (err.name === "BackupError" || err.name === "VacuumError");

/** The base path of the build next to this command, if there is one (doctor asks the public URL under it). */
function basePathOfBuild(): string {
  try {
    return builtBasePath(distDirOf(rootDir));
  } catch {
    return (process.env.FAULTLINE_BASE_PATH ?? "").replace(/\/+$/, "");
  }
}

async function runBackup(argv: string[]): Promise<void> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError("backup needs one FILE to write");
  const { backup } = await import("../ops/backup");
  const m = await backup(loadConfig(), positionals[0]!);
  console.error(
    `faultline: backed up ${m.dialect === "sqlite" ? "the SQLite database" : "the PostgreSQL database"} (${m.migrations.length} migrations), ${m.secretKey ? "the secret key" : "no secret key (FAULTLINE_SECRET_KEY is set: keep it yourself)"} and ${m.spool ? `the spool (${m.spool.segments.length} segments)` : "no spool"} to ${positionals[0]}`,
  );
}

async function runRestore(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { force: { type: "boolean", default: false } } });
  if (positionals.length !== 1) throw new UsageError("restore needs one FILE to read");
  const { restore } = await import("../ops/restore");
  // Restoring needs no secret key, and must not generate one into the empty data dir it is about to fill.
  const config = loadConfig({ ...process.env, FAULTLINE_SECRET_KEY: process.env.FAULTLINE_SECRET_KEY || "unused-while-restoring".repeat(2) });
  const m = await restore(config, positionals[0]!, { force: values.force });
  console.error(
    `faultline: restored the backup of ${m.createdAt} into ${config.dataDir}${config.databaseUrl ? " and the PostgreSQL database" : ""}${m.secretKey ? "" : "; it holds no secret key: set the FAULTLINE_SECRET_KEY the install had, or sessions start anew"}; \`faultline start\` migrates it to this version`,
  );
}

async function doctor(): Promise<number> {
  const { runDoctor, formatDoctor } = await import("../ops/doctor");
  const results = await runDoctor({ basePath: basePathOfBuild() });
  process.stdout.write(formatDoctor(results));
  return results.every((r) => r.ok) ? 0 : 1;
}

/**
 * Closes the services a command opened. They are loaded on demand: the application's services bring the sign-in
 * library and every driver, which `faultline start` (whose server runs them inside Next's bundle) does not load here,
 * for a faster start (bench:start).
 */
async function closeServices(): Promise<void> {
  await (await import("../runtime/services")).closeServices();
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "start": {
        const { start } = await import("../server/start");
        await start(rootDir);
        return -1; // keep running
      }
      case "worker": {
        const { runWorker } = await import("../digest/process");
        await runWorker(loadConfig());
        break;
      }
      case "migrate":
        await (await import("./account-commands")).migrate();
        break;
      case "createuser":
        await (await import("./account-commands")).createuser(rest);
        break;
      case "createtoken":
        await (await import("./account-commands")).createtoken(rest);
        break;
      case "doctor":
        return await doctor();
      case "backup":
        await runBackup(rest);
        break;
      case "restore":
        await runRestore(rest);
        break;
      case "vacuum": {
        const { runVacuum } = await import("../ops/vacuum-command");
        await runVacuum(loadConfig(), (line) => console.error(line));
        break;
      }
      case undefined:
      case "help":
      case "--help":
      case "-h":
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
    await closeServices();
    return 0;
  } catch (err) {
    await closeServices().catch(() => undefined);
    if (err instanceof DigestLockedError) {
      console.error(`faultline: ${err.message}`);
      return EXIT_LOCKED;
    }
    if (err instanceof ConfigError || err instanceof MigrationError || isOpsError(err)) console.error(`faultline: ${(err as Error).message}`);
    else if (err instanceof UsageError) console.error(`faultline: ${err.message}\n\n${USAGE}`);
    else if (isAppError(err)) console.error(`faultline: ${err.message}`);
    else if ((err as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") console.error(`faultline: ${(err as Error).message}\n\n${USAGE}`);
    else console.error(`faultline: ${(err as Error).stack ?? String(err)}`);
    return err instanceof ConfigError || err instanceof UsageError || isAppError(err) ? 2 : 1;
  }
}
