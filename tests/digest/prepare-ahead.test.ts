// The digest loop with a preparer elsewhere (the preparing thread, digest/prepare-thread.ts): the next batch is
// prepared while the one before it is written, every record is prepared and stored once, and a batch prepared ahead of
// a write that failed is dropped, not written after it.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { DIGEST_LIMITS } from "../../src/config/limits";
import { runDigestLoop } from "../../src/digest/loop";
import { prepareRows } from "../../src/digest/prepare";
import { SpoolReader, SpoolWriter } from "../../src/ingest/spool";
import type { SpoolRow } from "../../src/ingest/spool";
import type { DigestStore } from "../../src/storage/ports";
import { type TestCore, testCore, uniq } from "../helpers/core";

const dir = mkdtempSync(path.join(tmpdir(), "faultline-prepare-ahead-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Records: two and a half batches of errors, each its own issue's first event. */
const RECORDS = Math.floor(DIGEST_LIMITS.batchSize * 2.5);

type Spooled = { projectId: number; reader: SpoolReader; last: number; starts: number[]; close: () => void };

/** The spool, and the first record of each batch the loop reads (spool ids are positions in the spool's files). */
async function spoolOfErrors(t: TestCore, name: string): Promise<Spooled> {
  const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" });
  const org = await t.store.createOrganization({ slug: uniq("org"), name: "O", ownerUserId: owner.id });
  const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
  const spoolDir = mkdtempSync(path.join(dir, `${name}-`));
  const writer = SpoolWriter.open(spoolDir, "normal");
  const reader = SpoolReader.open(spoolDir);
  const items = Array.from({ length: RECORDS }, (_, i) => {
    const eventId = i.toString(16).padStart(32, "0");
    const payload = Buffer.from(JSON.stringify({ event_id: eventId, level: "error", message: `error number ${i}`, platform: "javascript" }));
    return { projectId: project.id, keyId: 1, receivedAt: Date.now(), itemType: "event", eventId, headers: '{"type":"event"}', meta: "{}", payload };
  });
  await writer.append(items);
  const ids = reader.read(0, RECORDS + 1).map((r) => r.id);
  assert.equal(ids.length, RECORDS);
  const starts = [0, 1, 2].map((k) => ids[k * DIGEST_LIMITS.batchSize]!);
  return { projectId: project.id, reader, last: ids.at(-1)!, starts, close: () => (reader.close(), writer.close()) };
}

/** The spool digested by the loop with `prepare` (rows prepared here after `delayMs`), each transaction after `before`. */
async function digest(
  t: TestCore,
  s: Spooled,
  hooks: {
    onPrepare: (rows: SpoolRow[]) => void;
    delayMs?: number;
    before: () => Promise<void>;
    after?: () => void;
    log?: (line: string) => void;
    onStorageFull?: (full: boolean) => void;
  },
): Promise<string[]> {
  const prepare = async (rows: SpoolRow[]) => {
    hooks.onPrepare(rows);
    // As a thread of its own takes time, the event loop turning meanwhile.
    if (hooks.delayMs) await sleep(hooks.delayMs);
    return prepareRows({ store: t.store, log: () => undefined }, rows);
  };
  const store = {
    ...t.store,
    async digestTransaction<T>(work: Parameters<DigestStore["digestTransaction"]>[0]): Promise<T> {
      await hooks.before();
      const result = (await t.store.digestTransaction(work)) as T;
      hooks.after?.();
      return result;
    },
  };
  let position = 0;
  const log = hooks.log ?? (() => undefined);
  const onStorageFull = hooks.onStorageFull;
  await runDigestLoop({ spool: s.reader, store, prepare, onPosition: (p) => (position = p), log, onStorageFull, stopped: () => position >= s.last });
  return (await t.db.kysely.selectFrom("events").select("event_id").where("project_id", "=", s.projectId).execute()).map((r) => r.event_id);
}

test("the next batch is prepared while the one before is written, and every record is prepared and stored once", async () => {
  const t = await testCore();
  const s = await spoolOfErrors(t, "ahead");
  const log: string[] = [];
  const prepared: number[] = [];
  try {
    const stored = await digest(t, s, {
      onPrepare: (rows) => (log.push(`prepare ${rows[0]!.id}`), prepared.push(...rows.map((r) => r.id))),
      delayMs: 30,
      before: async () => void (await sleep(30)),
      after: () => log.push("write ends"),
    });
    // Each batch's preparation began before the write of the batch before it ended.
    assert.deepEqual(log, [`prepare ${s.starts[0]}`, `prepare ${s.starts[1]}`, "write ends", `prepare ${s.starts[2]}`, "write ends", "write ends"]);
    assert.equal(prepared.length, RECORDS);
    assert.equal(new Set(prepared).size, RECORDS);
    assert.equal(stored.length, RECORDS);
    assert.equal(new Set(stored).size, RECORDS);
  } finally {
    s.close();
    await t.close();
  }
});

test("a batch prepared ahead of a write that failed is dropped, and the loop goes on from the saved position", async () => {
  const t = await testCore();
  const s = await spoolOfErrors(t, "failed-write");
  const preparedFrom: number[] = [];
  const errors: string[] = [];
  let failures = 0;
  try {
    const stored = await digest(t, s, {
      onPrepare: (rows) => preparedFrom.push(rows[0]!.id),
      // The first batch's transaction fails before it writes anything, as a locked or unreachable database does.
      before: async () => {
        if (failures++ === 0) throw new Error("database unreachable");
      },
      log: (line) => errors.push(line),
    });
    assert.ok(errors.some((l) => l.includes("database unreachable")));
    assert.ok(
      errors.some((l) => / written after 1 failed attempts: going on$/.test(l)),
      `the log says when the digest writes again: ${errors.join(" | ")}`,
    );
    // The first batch twice (its write failed), the second prepared ahead then dropped, then each once more.
    const [first, second, third] = s.starts;
    assert.deepEqual(preparedFrom, [first, second, first, second, third]);
    assert.equal(stored.length, RECORDS);
    assert.equal(new Set(stored).size, RECORDS);
  } finally {
    s.close();
    await t.close();
  }
});

test("a batch that fails for want of space says so, and says when it is written again (the process's storage state)", async () => {
  const t = await testCore();
  const s = await spoolOfErrors(t, "disk-full");
  const heard: boolean[] = [];
  let failures = 0;
  try {
    const stored = await digest(t, s, {
      onPrepare: () => undefined,
      // SQLite's answer when the disk is full, before the transaction writes anything (storage/storage-full.ts).
      before: async () => {
        if (failures++ < 2) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      },
      onStorageFull: (full) => heard.push(full),
    });
    assert.deepEqual(heard, [true, true, false], "each failed attempt, then the write that went through");
    assert.equal(stored.length, RECORDS);
  } finally {
    s.close();
    await t.close();
  }
});
