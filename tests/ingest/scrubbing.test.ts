// Data scrubbing end to end (issue 18), on SQLite and PostgreSQL: the official @sentry/node SDK and Debian's
// python3-sentry-sdk, both with send_default_pii, send requests with Authorization headers, session cookies, a
// password in a JSON body, a card number in a message and secrets in local variables, through the real intake, spool
// and digest. With the settings Faultline ships (Sentry's defaults), none of the planted secrets is found anywhere in
// the database: not in the SQLite file's bytes or the PostgreSQL dump, nor in any column of any table once the
// compressed event data is decoded. Each run also plants a value that is not secret, which must be found by the same
// searches (else they could not fail), and checks the secrets did arrive (the scrubbed fields are there, marked).
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { updateProject } from "../../src/core/projects";
import { decodeEventData } from "../../src/storage/event-codec";
import type { OpenDbOptions } from "../../src/storage/db";
import { type TestIntake, type TestProject, startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";

const SECRETS = {
  node: ["apikey", "bearer", "cookie", "bodypassword", "querytoken"],
  python: ["localpassword", "localsecret", "basic", "csrf", "pycookie"],
};
const CARD = /4111[ -]?1111[ -]?1111[ -]?1111/;

function runSdk(file: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { timeout: 30_000 }, (err, _out, stderr) => (err ? reject(new Error(`${file} ${args[0]}: ${stderr || err.message}`)) : resolve())),
  );
}

/** Every row of every table of the database as text, event data decoded (what a person with the database could read). */
async function everythingStored(t: TestIntake): Promise<string> {
  const k = t.core.db.kysely;
  const tables =
    t.core.db.dialect === "sqlite"
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(k)).rows.map((r) => r.name)
      : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = 'public'`.execute(k)).rows.map(
          (r) => r.name,
        );
  assert.ok(tables.includes("events"), "the table list is read");
  const parts: string[] = [];
  for (const table of tables) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(k)).rows;
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (value instanceof Uint8Array) parts.push(table === "events" && column === "data" ? decodeEventData(value) : Buffer.from(value).toString("utf8"));
        else parts.push(typeof value === "string" ? value : JSON.stringify(value));
      }
    }
  }
  return parts.join("\n");
}

/** The database as its files or its dump hold it: the SQLite file's bytes, or pg_dump's plain output. */
function rawDatabase(t: TestIntake, db: OpenDbOptions | undefined): string {
  if (!db || db.dialect === "sqlite") {
    // The write-ahead log holds the newest pages until a checkpoint moves them into the file.
    const file = `${t.dataDir}/faultline.sqlite3`;
    return [file, `${file}-wal`]
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f).toString("latin1"))
      .join("\n");
  }
  return execFileSync("pg_dump", ["--data-only", "--dbname", (db as { url: string }).url], { maxBuffer: 256 * 1024 * 1024 }).toString("utf8");
}

const eventsOf = async (t: TestIntake, p: TestProject) =>
  (await t.core.store.listEvents(p.id, "errors", { limit: 50 })).items.map((e) => JSON.parse(e.data) as Record<string, unknown>);

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`data scrubbing with real SDKs on ${dialect}`, { timeout: 300_000 }, () => {
    let t: TestIntake;
    let db: OpenDbOptions | undefined;
    let drop: (() => Promise<void>) | undefined;
    const marker = `planted${randomBytes(6).toString("hex")}`;
    before(async () => {
      if (dialect === "postgres") {
        const fresh = await freshPgDatabase(`scrub_${randomBytes(4).toString("hex")}`);
        drop = fresh.drop;
        db = { dialect: "postgres", url: fresh.url };
      }
      t = await startTestIntake({ db });
      await runSdk(process.execPath, ["--import", "./tests/ingest/sdk/node-pii-init.mjs", "tests/ingest/sdk/node-pii.mjs", t.projects[0].dsn, marker]);
      await runSdk("/usr/bin/python3", ["tests/ingest/sdk/python-pii.py", t.projects[0].dsn, marker]); // Debian's, with python3-sentry-sdk
      await t.settle();
    });
    after(async () => {
      await t?.close();
      await drop?.();
    });

    test("the secrets arrived and were scrubbed where they were: headers, cookies, body, extra, local variables, the message", async () => {
      const events = await eventsOf(t, t.projects[0]);
      assert.equal(events.length, 2, "one event from each SDK");
      const text = JSON.stringify(events);
      const node = events.find((e) => JSON.stringify(e).includes("payment failed"))!;
      const python = events.find((e) => JSON.stringify(e).includes("charge of 42 failed"))!;
      assert.ok(node && python, "both events stored");
      // @sentry/node 11 leaves out Authorization and cookie values itself; it sends the body and what the code sets.
      const nodeRequest = node.request as { data?: Record<string, unknown> };
      assert.ok(nodeRequest?.data, "the SDK sent the request's body");
      assert.equal(nodeRequest.data.password, "[Filtered]", "a password in a JSON body");
      assert.equal(nodeRequest.data.item, "book", "the rest of the body is kept");
      assert.equal((node.extra as Record<string, unknown>).api_key, "[Filtered]");
      assert.equal((node.extra as Record<string, unknown>).order, `${marker}-control`, "a value that is not secret is kept");
      // python-sentry-sdk 1.9 with send_default_pii sends the Authorization header and the cookies as they were.
      const pyRequest = python.request as { headers?: [string, string][]; cookies?: [string, string][] };
      const auth = pyRequest.headers?.find(([k]) => k.toLowerCase() === "authorization");
      assert.ok(auth, "the SDK sent the Authorization header");
      assert.equal(auth[1], "[Filtered]");
      assert.deepEqual(Object.fromEntries(pyRequest.cookies ?? []), { csrftoken: "[Filtered]", sessionid: "[Filtered]" });
      const frames = (python.exception as { values: { stacktrace?: { frames: { function?: string; vars?: Record<string, unknown> }[] } }[] }).values[0]!
        .stacktrace!.frames;
      const charge = frames.find((f) => f.function === "charge")!;
      assert.ok(charge?.vars, "the SDK sent the frame's local variables");
      assert.equal(charge.vars.password, "[Filtered]");
      assert.equal(charge.vars.secret_token, "[Filtered]");
      assert.match(String(charge.vars.note), new RegExp(`${marker}-control`), "a local variable that is not secret is kept");
      const crumbs = (node.breadcrumbs as { values: { category?: string; message?: string }[] }).values;
      const payment = crumbs.find((c) => c.category === "payment");
      assert.ok(payment, "the SDK sent the breadcrumb");
      assert.doesNotMatch(String(payment.message), CARD, "the card number in the breadcrumb's message is scrubbed");
      assert.ok(!CARD.test(text), "no card number anywhere in the events");
      assert.ok(JSON.stringify(node._meta).includes("@password"), "the event notes which rule scrubbed its values (_meta)");
      assert.ok(JSON.stringify(python._meta).includes("@password"), "the event notes which rule scrubbed its values (_meta)");
    });

    test("no planted secret is anywhere in the database, as stored and as the files or the dump hold it", async () => {
      const stored = await everythingStored(t);
      const raw = rawDatabase(t, db);
      assert.ok(stored.includes(`${marker}-control`), "the search of the stored rows finds what is not secret");
      assert.ok(raw.includes(`${marker}-control`), "the search of the file or dump finds what is not secret");
      for (const name of [...SECRETS.node, ...SECRETS.python]) {
        assert.ok(!stored.includes(`${marker}-${name}`), `${name} is not in any stored row`); // (no dump of the rows: they would fill the log)
        assert.ok(!raw.includes(`${marker}-${name}`), `${name} is not in the database ${dialect === "sqlite" ? "file" : "dump"}`);
      }
      assert.ok(!CARD.test(stored), "no card number in any stored row");
      assert.ok(!CARD.test(raw), "no card number in the database's file or dump");
    });

    test("scrubIPAddresses: the project's events keep no IP address, not even the one the intake saw", async () => {
      const p = t.projects[1];
      const owner = t.core.as(t.owner);
      await updateProject(owner, t.org, p.slug, { scrubIPAddresses: true });
      await runSdk(process.execPath, ["--import", "./tests/ingest/sdk/node-pii-init.mjs", "tests/ingest/sdk/node-pii.mjs", p.dsn, marker]);
      await t.settle();
      const [event] = await eventsOf(t, p);
      assert.ok(event, "the event is stored");
      const user = (event.user ?? {}) as Record<string, unknown>;
      assert.equal(user.email, "ann@example.com", "the rest of the user is kept");
      assert.equal(user.ip_address ?? null, null, "no user IP ({{auto}} took the intake's address, then scrubbing removed it)");
      const request = (event.request ?? {}) as { env?: Record<string, unknown> };
      assert.equal(request.env?.REMOTE_ADDR ?? null, null, "no REMOTE_ADDR");
      assert.equal(((event.sdk ?? {}) as Record<string, unknown>).client_ip ?? null, null, "no client IP of the SDK");
    });
  });
}
