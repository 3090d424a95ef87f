// `faultline doctor`, run as the command (from source) against real data dirs and databases: all well on a healthy
// install (exit 0), and each kind of trouble named with its fix (exit 1).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { spoolDir } from "../../src/ingest";
import { SpoolWriter } from "../../src/ingest/spool";
import { openDb } from "../../src/storage/db";
import { migrateToLatest, migrationsFor } from "../../src/storage/migrate";
import Provider from "oidc-provider";
import { freshPgDatabase } from "../helpers/pg";

const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "faultline-doctor-"));
  dirs.push(d);
  return d;
};

/** A server answering as Faultline's GET /api/health does (the doctor only asks whether the public URL answers). */
let health: http.Server;
let healthUrl: string;
before(async () => {
  health = http.createServer((req, res) => {
    if (req.url === "/api/health") res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => health.listen(0, "127.0.0.1", r));
  healthUrl = `http://127.0.0.1:${(health.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise((r) => health.close(r));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs `faultline doctor` with only the given Faultline variables (asynchronously: the health server answers meanwhile). */
function doctor(env: Record<string, string>): Promise<{ status: number | null; stdout: string }> {
  const clean = { ...process.env };
  for (const k of Object.keys(clean)) if (k.startsWith("FAULTLINE_") || k === "DATABASE_URL") delete clean[k];
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/faultline-cli.ts", "doctor"], {
    env: { ...clean, FAULTLINE_BASE_PATH: "", ...env },
  });
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => process.stderr.write(d));
  return new Promise((resolve) => child.on("exit", (status: number | null) => resolve({ status, stdout })));
}

const line = (out: string, name: string) => out.split("\n").find((l) => l.includes(` ${name}: `)) ?? "";

async function migratedSqlite(dataDir: string, upTo?: string): Promise<void> {
  const db = openDb({ dialect: "sqlite", file: path.join(dataDir, "faultline.sqlite3") });
  await migrateToLatest(db, upTo);
  await db.close();
}

describe("faultline doctor", () => {
  test("a healthy SQLite install: every check ok, exit 0", async () => {
    const dataDir = newDir();
    await migratedSqlite(dataDir);
    SpoolWriter.open(spoolDir(dataDir), "normal").close();
    const r = await doctor({ FAULTLINE_DATA_DIR: dataDir, FAULTLINE_URL: healthUrl });
    assert.equal(r.status, 0, r.stdout);
    for (const name of ["configuration", "database", "migrations", "clock", "disk", "spool", "public URL"])
      assert.match(line(r.stdout, name), /^ok /, `${name}: ${r.stdout}`);
    assert.match(line(r.stdout, "database"), /SQLite 3\.\d+/);
    assert.match(line(r.stdout, "migrations"), new RegExp(`all ${Object.keys(migrationsFor("sqlite")).length} applied`));
    assert.match(line(r.stdout, "spool"), /1 segment, backlog 0 records/);
    assert.match(r.stdout, /all is well\n$/);
  });

  test("pending migrations, a digest that is behind and a public URL that does not answer are each named with a fix", async () => {
    const dataDir = newDir();
    const names = Object.keys(migrationsFor("sqlite"));
    await migratedSqlite(dataDir, names.at(-2));
    const spool = SpoolWriter.open(spoolDir(dataDir), "normal");
    const hourAgo = Date.now() - 3600_000;
    await spool.append([
      { projectId: 1, keyId: 1, receivedAt: hourAgo, itemType: "event", eventId: "a".repeat(32), headers: "{}", meta: "{}", payload: Buffer.from("{}") },
    ]);
    spool.close();
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((r) => closed.close(r));

    const r = await doctor({ FAULTLINE_DATA_DIR: dataDir, FAULTLINE_URL: deadUrl });
    assert.equal(r.status, 1, r.stdout);
    assert.match(line(r.stdout, "migrations"), new RegExp(`^PROBLEM migrations: 1 pending \\(${names.at(-1)}\\)`));
    assert.match(r.stdout, /fix: run `faultline migrate`/);
    assert.match(line(r.stdout, "spool"), /^PROBLEM spool: 1 segment, backlog 1 records .*oldest 3[56]\d\d s.*the digest is behind/);
    assert.match(line(r.stdout, "public URL"), /^PROBLEM public URL: .*\/api\/health does not answer/);
    assert.match(r.stdout, /3 problems found\n$/);
  });

  test("a wrong configuration stops the checks at once, naming the variable", async () => {
    const r = await doctor({ FAULTLINE_DATA_DIR: newDir(), FAULTLINE_RETENTION_DAYS: "0", FAULTLINE_URL: healthUrl });
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^PROBLEM configuration: FAULTLINE_RETENTION_DAYS must be between 1 and \d+/);
  });

  test(
    "PostgreSQL: its version, clock and lock table; a database newer than the build; one that does not answer",
    { skip: process.env.FAULTLINE_TEST_PG_URL ? false : "FAULTLINE_TEST_PG_URL is not set" },
    async () => {
      const pg = await freshPgDatabase(`faultline_doctor_${process.pid}`);
      try {
        const db = openDb({ dialect: "postgres", url: pg.url });
        await migrateToLatest(db);
        const fine = await doctor({ FAULTLINE_DATA_DIR: newDir(), DATABASE_URL: pg.url, FAULTLINE_URL: healthUrl });
        assert.equal(fine.status, 0, fine.stdout);
        assert.match(line(fine.stdout, "database"), /^ok {6}database: PostgreSQL \d+/);
        assert.match(line(fine.stdout, "clock"), /^ok {6}clock: the database's clock is \d+ ms (ahead of|behind) this host's/);
        assert.match(line(fine.stdout, "spool"), /no spool yet/);
        // The test server is set as README.md asks (scripts/pg.sh: max_locks_per_transaction = 256): 90 days fit.
        const settings = await sql<{
          per_tx: string;
          conns: string;
        }>`select current_setting('max_locks_per_transaction') as per_tx, current_setting('max_connections') as conns`.execute(db.kysely);
        const { per_tx: perTx, conns } = settings.rows[0]!;
        assert.match(
          line(fine.stdout, "locks"),
          new RegExp(
            `^ok {6}locks: max_locks_per_transaction ${perTx} × max_connections ${conns}: [\\d,]+ lock slots; \\d+ connections each reading 94 day partitions at once need about [\\d,]+$`,
          ),
        );
        // Ten years kept: the same lock table is far too small, and the fix names the setting and a value.
        const tenYears = await doctor({ FAULTLINE_DATA_DIR: newDir(), DATABASE_URL: pg.url, FAULTLINE_URL: healthUrl, FAULTLINE_RETENTION_DAYS: "3650" });
        assert.equal(tenYears.status, 1, tenYears.stdout);
        assert.match(line(tenYears.stdout, "locks"), /^PROBLEM locks: .* reading 3,654 day partitions at once need about [\d,]+$/);
        assert.match(tenYears.stdout, /fix: set max_locks_per_transaction = (4096|8192|16384) in postgresql\.conf and restart PostgreSQL/);

        await sql`insert into faultline_migrations (name, timestamp) values ('9999-newer', ${new Date().toISOString()})`.execute(db.kysely);
        await db.close();
        const newer = await doctor({ FAULTLINE_DATA_DIR: newDir(), DATABASE_URL: pg.url, FAULTLINE_URL: healthUrl });
        assert.equal(newer.status, 1);
        assert.match(line(newer.stdout, "migrations"), /^PROBLEM migrations: the database has migrations this build does not know \(9999-newer\)/);

        const url = new URL(pg.url);
        url.pathname = "/faultline_no_such_database";
        const down = await doctor({ FAULTLINE_DATA_DIR: newDir(), DATABASE_URL: url.toString(), FAULTLINE_URL: healthUrl });
        assert.equal(down.status, 1);
        assert.match(line(down.stdout, "database"), /^PROBLEM database: cannot reach the database: .*faultline_no_such_database/);
        assert.match(down.stdout, /fix: check DATABASE_URL/);
      } finally {
        await pg.drop();
      }
    },
  );

  test("single sign-on: a provider on loopback that publishes its discovery document and keys is ok; another issuer name or none is a problem", async () => {
    // A real OpenID Connect provider (oidc-provider) on loopback: the operator's, so Faultline fetches it.
    const server = http.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    server.on(
      "request",
      new Provider(issuer, {
        clients: [{ client_id: "doctor", client_secret: "doctor-secret-0123456789", redirect_uris: ["http://localhost/cb"] }],
      }).callback(),
    );
    try {
      const dataDir = newDir();
      await migratedSqlite(dataDir);
      SpoolWriter.open(spoolDir(dataDir), "normal").close();
      const env = {
        FAULTLINE_DATA_DIR: dataDir,
        FAULTLINE_URL: healthUrl,
        FAULTLINE_OIDC_CLIENT_ID: "doctor",
        FAULTLINE_OIDC_CLIENT_SECRET: "doctor-secret-0123456789",
      };
      const good = await doctor({ ...env, FAULTLINE_OIDC_ISSUER: issuer });
      assert.equal(good.status, 0, good.stdout);
      assert.match(line(good.stdout, "single sign-on"), /^ok .*publishes its discovery document and \d+ signing keys?/);
      assert.ok(!good.stdout.includes("doctor-secret-0123456789"), "the secret is never printed");
      const renamed = await doctor({ ...env, FAULTLINE_OIDC_ISSUER: `${issuer}/realms/other` });
      assert.equal(renamed.status, 1);
      assert.match(line(renamed.stdout, "single sign-on"), /^PROBLEM .*answers 404/);
      const noProvider = await doctor({ ...env, FAULTLINE_OIDC_ISSUER: "http://127.0.0.1:9" });
      assert.match(line(noProvider.stdout, "single sign-on"), /^PROBLEM /);
      assert.match(noProvider.stdout, /fix: check FAULTLINE_OIDC_ISSUER/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
