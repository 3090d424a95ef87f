// A node on a database migrated by a newer Faultline (migrations this build does not have) refuses to start, with a
// message saying what happened and what to do; on SQLite and on PostgreSQL, through the store and the command line.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { sql } from "kysely";
import { type OpenDbOptions, openDb } from "../../src/storage/db";
import { SchemaNewerError, migrateToLatest, migrationStatus } from "../../src/storage/migrate";
import { freshPgDatabase } from "../helpers/pg";

const FUTURE = "9999-from-a-newer-faultline";
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", "tests/helpers/faultline-cli.ts", ...args], {
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, stderr: r.stderr };
}

async function migratedWithFuture(options: OpenDbOptions): Promise<void> {
  const db = openDb(options);
  try {
    await migrateToLatest(db);
    assert.deepEqual((await migrationStatus(db)).unknown, []);
    await sql`insert into faultline_migrations (name, timestamp) values (${FUTURE}, ${new Date().toISOString()})`.execute(db.kysely);
    const status = await migrationStatus(db);
    assert.deepEqual(status.unknown, [FUTURE]);
    assert.deepEqual(status.pending, []);
    await assert.rejects(
      migrateToLatest(db),
      (e: unknown) => e instanceof SchemaNewerError && e.message.includes(FUTURE) && /newer Faultline/.test(e.message) && /faultline restore/.test(e.message),
    );
  } finally {
    await db.close();
  }
}

/** `faultline start` reads the build's base path before it migrates: a build of that file alone will do (the CLI run from
 * source takes src/ as its root, and FAULTLINE_DIST_DIR relative to it). */
function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-build-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "required-server-files.json"), JSON.stringify({ config: { basePath: "" } }));
  return dir;
}

function assertCliRefuses(env: Record<string, string>): void {
  for (const command of ["migrate", "start"]) {
    const r = cli([command], { FAULTLINE_SELF_MONITORING: "0", PORT: "19999", FAULTLINE_DIST_DIR: path.relative(path.resolve("src"), fakeBuild()), ...env });
    assert.equal(r.status, 1, `${command}: ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`faultline: the database was migrated by a newer Faultline: it has migration ${FUTURE}`));
    assert.doesNotMatch(r.stderr, /\n\s+at /, "a message, not a stack trace");
  }
}

describe("a database newer than this build", () => {
  test("SQLite: the store and `faultline migrate` / `faultline start` refuse it", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "faultline-newer-"));
    dirs.push(dataDir);
    await migratedWithFuture({ dialect: "sqlite", file: path.join(dataDir, "faultline.sqlite3") });
    assertCliRefuses({ FAULTLINE_DATA_DIR: dataDir });
  });

  test("PostgreSQL: the same", { skip: process.env.FAULTLINE_TEST_PG_URL ? false : "FAULTLINE_TEST_PG_URL is not set" }, async () => {
    const pg = await freshPgDatabase(`faultline_newer_${process.pid}`);
    const dataDir = mkdtempSync(path.join(tmpdir(), "faultline-newer-"));
    dirs.push(dataDir);
    try {
      await migratedWithFuture({ dialect: "postgres", url: pg.url });
      assertCliRefuses({ FAULTLINE_DATA_DIR: dataDir, DATABASE_URL: pg.url });
    } finally {
      await pg.drop();
    }
  });
});
