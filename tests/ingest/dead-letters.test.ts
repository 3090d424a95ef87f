// The class of finding 3 (issue 16), made impossible: whatever a record does to the digest (its processing throws, its
// batch's transaction is refused for its data, it blocks the digest thread's event loop, it takes the thread down),
// it is tried again alone, then set aside in the dead-letter table with its error and counted as invalid
// (processing_error), and the digest goes on with the next record; a database that is down sets nothing aside.
// Records no fix foresaw are made by a test entry of the digest thread (tests/helpers/digest-test-worker.ts) whose
// symbolicator misbehaves on marked events, and by a real trigger in the database that refuses marked events.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { loadConfig } from "../../src/config/env";
import { discardDeadLetter, listDeadLetters, retryDeadLetter } from "../../src/core/dead-letters";
import { isAppError } from "../../src/core/errors";
import { hourOf } from "../../src/core/hours";
import { runWorker } from "../../src/digest/process";
import type { OpenDbOptions } from "../../src/storage/db";
import type { TestIntake } from "../helpers/intake";
import { startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";
import { envelope, hex, post, sendGood } from "../helpers/poison";
import { startTcpProxy } from "../helpers/tcp-proxy";

const testEntry = new URL("../helpers/digest-test-worker.mjs", import.meta.url);
/** milliseconds a record may block the test's digest thread: short, so the test is quick; the heartbeat is 250 ms. */
const BUDGET_MS = 1500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * milliseconds an awaited record may take to be stored or set aside before the test gives up on it. A record that
 * hangs costs two budgets of the digest thread's CPU time and two new threads before the digest goes on, and the
 * thread runs at nice 10: on a machine kept busy by other work it gets little of a core (run beside the bad-input
 * corpus and a build, the first budget took more than 30 s to use up). A deadline only says how long to wait for what
 * never comes: it costs nothing when the record arrives.
 */
const ARRIVAL_MS = 120_000;

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = ARRIVAL_MS): Promise<void> {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await sleep(50)) if (await check()) return;
  throw new Error(`timed out waiting for ${what}`);
}

/** Sends an event marked for the test symbolicator (or with a message the database's trigger refuses). */
async function sendMarked(t: TestIntake, payload: Record<string, unknown>): Promise<string> {
  const id = hex();
  assert.equal(await post(t, t.projects[0], envelope([{ type: "event", payload: { platform: "node", ...payload } }], id)), 200);
  return id;
}

const deadLetter = async (t: TestIntake, eventId: string) => (await t.core.store.listDeadLetters(100)).items.find((d) => d.eventId === eventId) ?? null;

async function processingErrors(t: TestIntake): Promise<number> {
  const totals = await t.core.store.outcomeTotals(t.projects[0].id, hourOf(Date.now() - 86_400_000));
  return totals.filter((o) => o.outcome === "invalid" && o.reason === "processing_error").reduce((n, o) => n + o.quantity, 0);
}

/** A good event before and after: both stored, so nothing before the poison was lost and the digest went on. */
async function aroundPoison(t: TestIntake, label: string, send: () => Promise<string>): Promise<string> {
  const before = await sendGood(t, t.projects[0], `before ${label}`);
  const poison = await send();
  const afterIt = await sendGood(t, t.projects[0], label);
  await t.waitForEvent(t.projects[0], before, ARRIVAL_MS);
  await t.waitForEvent(t.projects[0], afterIt, ARRIVAL_MS);
  return poison;
}

async function pgDatabase(): Promise<{ options: OpenDbOptions; url: string; drop: () => Promise<void> }> {
  const fresh = await freshPgDatabase(`deadletters_${randomBytes(4).toString("hex")}`);
  return { options: { dialect: "postgres", url: fresh.url }, url: fresh.url, drop: fresh.drop };
}

// The digest in one thread on both databases, and with its preparing thread (FAULTLINE_DIGEST_THREADS=2), where the
// records are prepared and the watchdog watches that thread.
for (const [dialect, digestThreads] of [
  ["sqlite", 1],
  ["postgres", 1],
  ["sqlite", 2],
] as const) {
  describe(`records set aside, on ${dialect}${digestThreads === 2 ? ", with the preparing thread" : ""}`, { timeout: 1_200_000 }, () => {
    let t: TestIntake;
    let drop: (() => Promise<void>) | undefined;
    before(async () => {
      let db: OpenDbOptions | undefined;
      if (dialect === "postgres") {
        const fresh = await pgDatabase();
        drop = fresh.drop;
        db = fresh.options;
      }
      t = await startTestIntake({ db, digestEntry: testEntry, digestBudgetMs: BUDGET_MS, digestThreads });
    });
    after(async () => {
      await t.close();
      await drop?.();
    });

    test("hostile input #3: a record whose processing throws is tried again alone, then set aside with its error, counted as processing_error", async () => {
      const counted = await processingErrors(t);
      const poison = await aroundPoison(t, "a record that throws", () => sendMarked(t, { message: "throws", extra: { digest_test: "throw" } }));
      const letter = await deadLetter(t, poison);
      assert.ok(letter, "the record is in the dead-letter table");
      assert.equal(letter.attempts, 2);
      assert.equal(letter.itemType, "event");
      assert.equal(letter.projectId, t.projects[0].id);
      assert.match(letter.error, /the test symbolicator fails on this event/);
      assert.equal(await t.core.store.getEvent(t.projects[0].id, poison), null, "not stored");
      assert.equal(await processingErrors(t), counted + 1);
      // The record itself is kept: it can be sent again after its spool segment is gone.
      const kept = await t.core.store.getDeadLetter(letter.id);
      assert.ok(kept && Buffer.from(kept.record).includes(Buffer.from('"digest_test":"throw"')));
    });

    test("hostile input #3: a record that blocks the digest thread is caught by a watchdog outside it, tried alone, then set aside", async () => {
      const counted = await processingErrors(t);
      const poison = await aroundPoison(t, "a record that hangs", () => sendMarked(t, { message: "hangs", extra: { digest_test: "hang" } }));
      const letter = await deadLetter(t, poison);
      assert.ok(letter, "the record is in the dead-letter table");
      assert.equal(letter.attempts, 2);
      assert.match(
        letter.error,
        /^ThreadEndedError: a digest thread was ended on this record 2 times: it kept the thread's event loop busy for more than 1500 ms; it kept/,
      );
      assert.equal(await processingErrors(t), counted + 1);
    });

    test("hostile input #3: a record that blocked the thread once is tried alone and stored when it then goes through", async () => {
      const marker = path.join(mkdtempSync(path.join(tmpdir(), "faultline-hang-once-")), "blocked");
      try {
        const poison = await aroundPoison(t, "a record that hangs once", () =>
          sendMarked(t, { message: "hangs once", extra: { digest_test: `hang-once:${marker}` } }),
        );
        await t.waitForEvent(t.projects[0], poison, ARRIVAL_MS);
        assert.equal(await deadLetter(t, poison), null);
      } finally {
        rmSync(path.dirname(marker), { recursive: true, force: true });
      }
    });

    test("hostile input #3: a record that takes the digest thread down is set aside after the second time", async () => {
      const poison = await aroundPoison(t, "a record that crashes the thread", () => sendMarked(t, { message: "crashes", extra: { digest_test: "crash" } }));
      const letter = await deadLetter(t, poison);
      assert.ok(letter);
      assert.equal(letter.attempts, 2);
      assert.match(letter.error, /ended on this record 2 times: the thread died \(exit code 70\); the thread died/);
    });
  });
}

/** A trigger that refuses events titled "refused by the database", as a constraint refuses a value it cannot hold. */
async function refuseMarkedEvents(dialect: "sqlite" | "postgres", target: string): Promise<void> {
  if (dialect === "sqlite") {
    const db = new Database(target);
    db.exec(`create trigger refuse_marked before insert on events when new.title like '%refused by the database%'
             begin select raise(abort, 'this event is refused by a check'); end`);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  await client.query(`create function refuse_marked() returns trigger language plpgsql as $$
    begin
      if new.title like '%refused by the database%' then
        raise exception 'this event is refused by a check' using errcode = '22023';
      end if;
      return new;
    end $$`);
  await client.query("create trigger refuse_marked before insert on events for each row execute function refuse_marked()");
  await client.end();
}

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`a batch the database refuses for its data, on ${dialect}`, { timeout: 600_000 }, () => {
    test("hostile input #3: the batch is written again record by record; the refused record is set aside, the rest are stored; a superuser sends it again", async () => {
      const fresh = dialect === "postgres" ? await pgDatabase() : null;
      const t = await startTestIntake({ db: fresh?.options });
      try {
        await refuseMarkedEvents(dialect, fresh ? fresh.url : path.join(t.dataDir, "faultline.sqlite3"));
        // Sent in one go, so the refused record shares its batch with good ones.
        const goods = [];
        const bodies = [];
        for (let i = 0; i < 20; i++) {
          const id = hex();
          goods.push(id);
          bodies.push(post(t, t.projects[0], envelope([{ type: "event", payload: { message: `good ${i}` } }], id)));
          if (i === 10) bodies.push(sendMarked(t, { message: "refused by the database" }));
        }
        const results = await Promise.all(bodies);
        const poison = results.find((r): r is string => typeof r === "string")!;
        for (const id of goods) await t.waitForEvent(t.projects[0], id, ARRIVAL_MS);
        await t.settle();
        const letter = await deadLetter(t, poison);
        assert.ok(letter, "the refused record is set aside");
        assert.equal(letter.attempts, 2);
        assert.match(
          letter.error,
          dialect === "postgres" ? /^22023: this event is refused by a check/ : /^SQLITE_CONSTRAINT_TRIGGER: this event is refused by a check/,
        );
        assert.equal(await processingErrors(t), 1);

        // Superusers alone see it and act on it; to anyone else it does not exist.
        const admin = await t.core.accounts.createUser({ email: `admin-${hex()}@example.com`, password: "password123", name: "Admin", isSuperuser: true });
        const asOwner = t.core.as(t.owner);
        for (const run of [
          () => listDeadLetters(asOwner),
          () => retryDeadLetter(asOwner, letter.id, t.submitEnvelope),
          () => discardDeadLetter(asOwner, letter.id),
        ]) {
          await assert.rejects(run(), (e: unknown) => isAppError(e) && e.code === "not_found");
        }
        const asAdmin = t.core.as(admin);
        assert.deepEqual(
          (await listDeadLetters(asAdmin)).items.map((d) => [d.eventId, d.resendable]),
          [[poison, true]],
        );
        // While the cause remains, sending it again sets it aside again, as a new record.
        await retryDeadLetter(asAdmin, letter.id, t.submitEnvelope);
        await until("the record to be set aside again", async () => (await t.core.store.listDeadLetters(10)).items.length === 2);
        await assert.rejects(retryDeadLetter(asAdmin, letter.id, t.submitEnvelope), (e: unknown) => isAppError(e) && e.code === "conflict");
        // The cause gone (an upgrade): sent again, it is stored, once.
        await dropRefusal(dialect, fresh ? fresh.url : path.join(t.dataDir, "faultline.sqlite3"));
        const again = (await t.core.store.listDeadLetters(10)).items.find((d) => d.retriedAt === null)!;
        // Two clicks at once: one sends it, the other is told it was sent (the claim comes before the send).
        let sends = 0;
        const counting: typeof t.submitEnvelope = (input) => (sends++, t.submitEnvelope(input));
        const both = await Promise.allSettled([retryDeadLetter(asAdmin, again.id, counting), retryDeadLetter(asAdmin, again.id, counting)]);
        assert.equal(sends, 1, "sent once");
        assert.deepEqual(both.map((r) => r.status).sort(), ["fulfilled", "rejected"]);
        assert.deepEqual((both.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<unknown>).value, { eventId: poison });
        const stored = await t.waitForEvent(t.projects[0], poison, ARRIVAL_MS);
        assert.match(stored.title, /refused by the database/);
        await discardDeadLetter(asAdmin, letter.id);
        await assert.rejects(discardDeadLetter(asAdmin, letter.id), (e: unknown) => isAppError(e) && e.code === "not_found");
        assert.equal((await listDeadLetters(asAdmin)).total, 1);
      } finally {
        await t.close();
        await fresh?.drop();
      }
    });
  });
}

async function dropRefusal(dialect: "sqlite" | "postgres", target: string): Promise<void> {
  if (dialect === "sqlite") {
    const db = new Database(target);
    db.exec("drop trigger refuse_marked");
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  await client.query("drop trigger refuse_marked on events");
  await client.end();
}

describe("a database that is down sets nothing aside", { timeout: 600_000 }, () => {
  test("hostile input #3: PostgreSQL unreachable: the digest waits and retries, then stores every event; no dead letters", async () => {
    const fresh = await pgDatabase();
    const target = new URL(fresh.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port));
    const viaProxy = new URL(fresh.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const t = await startTestIntake({ db: fresh.options, digestDb: { dialect: "postgres", url: viaProxy.toString() } });
    try {
      const first = await sendGood(t, t.projects[0], "the outage");
      await t.waitForEvent(t.projects[0], first);
      proxy.cut();
      const during = [];
      for (let i = 0; i < 10; i++) during.push(await sendGood(t, t.projects[0], `outage ${i}`));
      await sleep(3000); // several failed attempts of the digest
      assert.equal(await t.core.store.getEvent(t.projects[0].id, during[0]!), null, "nothing digested while the database is unreachable");
      proxy.restore();
      for (const id of during) await t.waitForEvent(t.projects[0], id, ARRIVAL_MS);
      assert.deepEqual((await t.core.store.listDeadLetters(10)).items, []);
      assert.equal(await processingErrors(t), 0);
    } finally {
      await t.close();
      await proxy.close();
      await fresh.drop();
    }
  });

  test("hostile input #3: SQLite locked by another process: the digest waits and retries, then stores every event; no dead letters", async () => {
    const t = await startTestIntake();
    const other = new Database(path.join(t.dataDir, "faultline.sqlite3"));
    try {
      const first = await sendGood(t, t.projects[0], "the lock");
      await t.waitForEvent(t.projects[0], first);
      other.exec("begin exclusive");
      const during = [];
      for (let i = 0; i < 10; i++) during.push(await sendGood(t, t.projects[0], `lock ${i}`));
      await sleep(8000); // longer than the digest connection's busy timeout: it fails with SQLITE_BUSY, and again
      other.exec("commit");
      for (const id of during) await t.waitForEvent(t.projects[0], id, ARRIVAL_MS);
      assert.deepEqual((await t.core.store.listDeadLetters(10)).items, []);
      assert.equal(await processingErrors(t), 0);
    } finally {
      if (other.inTransaction) other.exec("rollback");
      other.close();
      await t.close();
    }
  });
});

describe("faultline worker supervises its digest thread too", { timeout: 600_000 }, () => {
  test("hostile input #3: under faultline worker, a record that blocks the digest thread is set aside and the digest goes on", async () => {
    const t = await startTestIntake({ digest: "external" });
    const stop = new AbortController();
    const lines: string[] = [];
    const config = loadConfig({ ...process.env, FAULTLINE_DATA_DIR: t.dataDir, DATABASE_URL: "", FAULTLINE_SECRET_KEY: "worker-test-secret-".padEnd(40, "0") });
    const worker = runWorker(config, (line) => lines.push(line), { entry: testEntry, budgetMs: BUDGET_MS, signal: stop.signal });
    try {
      const poison = await aroundPoison(t, "a record that hangs the worker", () =>
        sendMarked(t, { message: "hangs the worker", extra: { digest_test: "hang" } }),
      );
      const letter = await deadLetter(t, poison);
      assert.ok(letter, lines.join("\n"));
      assert.equal(letter.attempts, 2);
      assert.ok(lines.some((l) => l.includes(`spool record ${letter.recordId} kept the digest thread busy`)));
    } finally {
      stop.abort();
      await worker;
      await t.close();
    }
  });
});

/**
 * Records the watchdog must leave alone. On a busy machine the thread at nice 10 may wait seconds for a core: its event
 * loop does not turn, yet it is not stuck (blocked here without using the CPU for three budgets). An event whose
 * symbolication awaits (a source map fetched from a slow server) keeps the event loop turning: the heartbeat beats,
 * and the record is digested however long it takes. Counted, not timed: no dead letter.
 */
const LEFT_ALONE = [
  {
    what: "while its thread has used less than the budget of CPU, however long by the clock",
    name: "a record whose thread waits without running",
    mark: `wait:${BUDGET_MS * 3}`,
  },
  { what: "while it waits asynchronously", name: "a slow asynchronous record", mark: `sleep:${BUDGET_MS * 3}` },
];

for (const threads of [1, 2] as const)
  for (const { what, name, mark } of LEFT_ALONE)
    test(`the watchdog leaves a record alone ${what}${threads === 2 ? ", with the preparing thread" : ""}`, { timeout: 600_000 }, async () => {
      const t = await startTestIntake({ digestEntry: testEntry, digestBudgetMs: BUDGET_MS, digestThreads: threads });
      try {
        const id = await aroundPoison(t, name, () => sendMarked(t, { message: name, extra: { digest_test: mark } }));
        await t.waitForEvent(t.projects[0], id, ARRIVAL_MS);
        assert.deepEqual((await t.core.store.listDeadLetters(10)).items, []);
      } finally {
        await t.close();
      }
    });
