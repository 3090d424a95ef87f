// Which failures set a record aside (digest/failures.ts): errors about the data, as real PostgreSQL and SQLite raise
// them, against errors of a database that is down, locked, busy or misconfigured, which must only be waited out.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { describeFailure, isDataError } from "../../src/digest/failures";
import { freshPgDatabase } from "../helpers/pg";

async function failure(run: () => Promise<unknown> | unknown): Promise<unknown> {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error("expected a failure");
}

describe("PostgreSQL errors", () => {
  let client: pg.Client;
  let url: string;
  let drop: () => Promise<void>;
  before(async () => {
    const fresh = await freshPgDatabase(`failures_${randomBytes(4).toString("hex")}`);
    url = fresh.url;
    drop = fresh.drop;
    client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("create table things (id integer primary key, amount real, note text)");
  });
  after(async () => {
    await client.end().catch(() => undefined);
    await drop();
  });

  test("about the data: a number out of range (22003), a NUL character (22021), a duplicate key (23505)", async () => {
    const outOfRange = await failure(() => client.query("insert into things values (1, $1, 'x')", [1e300]));
    const nul = await failure(() => client.query("insert into things values (2, 1, $1)", ["a\u0000b"]));
    await client.query("insert into things values (3, 1, 'x')");
    const duplicate = await failure(() => client.query("insert into things values (3, 1, 'x')"));
    for (const [err, code] of [
      [outOfRange, "22003"],
      [nul, "22021"],
      [duplicate, "23505"],
    ] as const) {
      assert.equal((err as { code: string }).code, code);
      assert.equal(isDataError(err), true, describeFailure(err));
    }
  });

  test("the database's: a missing table (42P01), a statement cancelled (57014), a connection terminated (57P01), refused", async () => {
    const missing = await failure(() => client.query("select * from nothing_here"));
    const cancelled = await failure(async () => {
      await client.query("set statement_timeout = 20");
      try {
        await client.query("select pg_sleep(2)");
      } finally {
        await client.query("set statement_timeout = 0");
      }
    });
    const victim = new pg.Client({ connectionString: url });
    victim.on("error", () => undefined);
    await victim.connect();
    const { rows } = await victim.query<{ pid: number }>("select pg_backend_pid() as pid");
    const killed = failure(() => victim.query("select pg_sleep(5)"));
    await client.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
    const terminated = await killed;
    const refused = await failure(async () => {
      const nowhere = new pg.Client({ host: "127.0.0.1", port: 1, user: "x", database: "x" });
      await nowhere.connect();
    });
    assert.equal((missing as { code: string }).code, "42P01");
    assert.equal((cancelled as { code: string }).code, "57014");
    assert.equal((refused as { code: string }).code, "ECONNREFUSED");
    for (const err of [missing, cancelled, terminated, refused]) assert.equal(isDataError(err), false, describeFailure(err));
  });
});

describe("SQLite errors", () => {
  let dir: string;
  let db: Database.Database;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "faultline-failures-"));
    db = new Database(path.join(dir, "x.sqlite3"));
    db.pragma("journal_mode = WAL");
    db.exec("create table things (id integer primary key, note text not null)");
  });
  after(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("about the data: a constraint, a value better-sqlite3 cannot bind", async () => {
    db.prepare("insert into things values (1, 'x')").run();
    const duplicate = await failure(() => db.prepare("insert into things values (1, 'x')").run());
    const notNull = await failure(() => db.prepare("insert into things values (2, null)").run());
    const unbindable = await failure(() => db.prepare("insert into things values (3, ?)").run({ an: "object" } as never));
    assert.equal((duplicate as { code: string }).code, "SQLITE_CONSTRAINT_PRIMARYKEY");
    assert.equal((notNull as { code: string }).code, "SQLITE_CONSTRAINT_NOTNULL");
    for (const err of [duplicate, notNull, unbindable]) assert.equal(isDataError(err), true, describeFailure(err));
  });

  test("the database's: busy (another connection writes), read-only", async () => {
    const other = new Database(path.join(dir, "x.sqlite3"));
    other.pragma("busy_timeout = 0");
    db.exec("begin immediate");
    const busy = await failure(() => other.prepare("insert into things values (10, 'y')").run());
    db.exec("rollback");
    other.close();
    const readonly = new Database(path.join(dir, "x.sqlite3"), { readonly: true });
    const denied = await failure(() => readonly.prepare("insert into things values (11, 'z')").run());
    readonly.close();
    assert.equal((busy as { code: string }).code, "SQLITE_BUSY");
    assert.equal((denied as { code: string }).code, "SQLITE_READONLY");
    for (const err of [busy, denied]) assert.equal(isDataError(err), false, describeFailure(err));
  });
});

test("JavaScript errors: a TypeError or RangeError from the data is the data's; anything unknown is not", () => {
  assert.equal(isDataError(new RangeError("Invalid time value")), true);
  assert.equal(isDataError(new TypeError("x is not a function")), true);
  assert.equal(isDataError(new Error("Connection terminated unexpectedly")), false);
  assert.equal(isDataError("a string"), false);
  assert.equal(isDataError(null), false);
});
