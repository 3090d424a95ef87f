// Day partitions on a real PostgreSQL (issue 21, migrations 0029 and 0041; PostgreSQL's "Table Partitioning"
// chapter, 5.11): events, event_users, trace_events, spans and raw_items are partitioned by UTC day of arrival,
// retention drops whole days past the instance's retention (read from pg_inherits, pg_class and
// pg_total_relation_size), a project's shorter retention still deletes rows inside the days kept, a row outside every
// day lands in the DEFAULT partition, and two nodes changing partitions at once take turns.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { type RawBuilder, sql } from "kysely";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import { RetentionJob, retentionSettings } from "../../src/digest/retention";
import { openDb } from "../../src/storage/db";
import { createStore } from "../../src/storage/kysely";
import { PARTITIONED_TABLES } from "../../src/storage/partition-ports";
import type { NewRawItem } from "../../src/storage/ports";
import { type TestCore, testCore } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";

const NOW = Date.parse("2030-03-15T12:00:00.000Z");
/** Instance retention of 10 days: the cutoff is 2030-03-05T12:00:00.000Z. */
const DAYS = 10;
const day = (d: number) => `2030-03-${String(d).padStart(2, "0")}`;
const at = (d: number, hour = 10) => `${day(d)}T${String(hour).padStart(2, "0")}:00:00.000Z`;
let n = 0;
const nextId = () => (++n).toString(16).padStart(32, "0");

function event(projectId: number, receivedAt: string, extra: Partial<DigestedEvent> = {}): DigestedEvent {
  const eventId = nextId();
  // About 4 KB of data each, so that a day's partition has pages to free.
  const data = JSON.stringify({ event_id: eventId, message: randomBytes(2048).toString("hex") });
  return {
    projectId,
    eventId,
    type: "error",
    receivedAt,
    timestamp: receivedAt,
    platform: "python",
    level: "error",
    title: "E",
    message: "",
    culprit: "",
    release: null,
    environment: null,
    size: data.length,
    data,
    category: "error",
    grouping: { config: "c", hashes: ["h"] },
    metadata: "{}",
    userKey: "id:1",
    userParts: [["id", "1"]],
    tags: [],
    traceId: "ab".repeat(16),
    ...extra,
  };
}
const rawItem = (projectId: number, receivedAt: string): NewRawItem => ({
  projectId,
  type: "session",
  eventId: null,
  receivedAt,
  headers: "{}",
  payload: Buffer.from("{}"),
  category: "session",
  quantity: 1,
});
const span = (projectId: number, receivedAt: string) => ({
  projectId,
  traceId: "f".repeat(32),
  spanId: randomBytes(8).toString("hex"),
  parentSpanId: null,
  segmentId: null,
  isSegment: false,
  transaction: "t",
  op: "db",
  description: "",
  status: "ok",
  startTime: receivedAt,
  durationMs: 1,
  environment: null,
  release: null,
  eventId: null,
  receivedAt,
});

describe("day partitions on PostgreSQL", () => {
  let url = "";
  let drop: () => Promise<void> = async () => {};
  let t: TestCore;
  let p = 0;
  let short = 0;
  before(async () => {
    const fresh = await freshPgDatabase(`part_${randomBytes(4).toString("hex")}`);
    url = fresh.url;
    drop = fresh.drop;
    t = await testCore({ dialect: "postgres", url });
    const owner = await t.accounts.createUser({ email: "owner@example.com", password: "password123", name: "Owner" });
    const org = await t.store.createOrganization({ slug: "org", name: "Org", ownerUserId: owner.id });
    p = (await t.store.createProject({ organizationId: org.id, teamId: null, slug: "web", name: "Web", platform: null })).id;
    short = (await t.store.createProject({ organizationId: org.id, teamId: null, slug: "short", name: "Short", platform: null })).id;
    await t.store.updateProject(short, { retentionDays: 3 });
  });
  after(async () => {
    await t?.close();
    await drop();
  });

  const rows = async <T>(query: RawBuilder<T>): Promise<T[]> => (await query.execute(t.db.kysely)).rows;
  const partitions = async (table: string) =>
    (
      await rows(
        sql<{
          name: string;
        }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(${table}) order by 1`,
      )
    ).map((r) => r.name);
  const bytesOf = async (table: string) =>
    Number(
      (
        await rows(
          sql<{ b: string }>`select coalesce(sum(pg_total_relation_size(inhrelid)), 0)::text as b from pg_inherits where inhparent = to_regclass(${table})`,
        )
      )[0]!.b,
    );
  const where = async (eventId: string) =>
    (await rows(sql<{ part: string }>`select tableoid::regclass::text as part from events where event_id = ${eventId}`)).map((r) => r.part);

  test("every per-event table is partitioned by day of arrival, with a DEFAULT partition", async () => {
    for (const table of PARTITIONED_TABLES) {
      const [info] = await rows(
        sql<{
          strategy: string;
          key: string;
        }>`select partstrat as strategy, pg_get_partkeydef(partrelid) as key from pg_partitioned_table where partrelid = to_regclass(${table})`,
      );
      assert.deepEqual(info, { strategy: "r", key: "RANGE (received_at)" }, table);
      assert.ok((await partitions(table)).includes(`${table}_default`), table);
    }
  });

  test("retention drops whole days past the instance's retention and frees their space; recent days, a shorter project retention and out-of-range rows are handled", async () => {
    const days = Array.from({ length: 15 }, (_, i) => day(i + 1));
    const made = await t.store.ensureDayPartitions(days);
    assert.equal(made.partitions.length, 15 * PARTITIONED_TABLES.length);
    // Ten events a day for 15 days, with their user rows, a span and a kept item each day; the short-lived project's
    // events on the last five days.
    const kept: Record<string, string[]> = {};
    for (let d = 1; d <= 15; d++) {
      const events = Array.from({ length: 10 }, () => event(p, at(d)));
      kept[day(d)] = events.map((e) => e.eventId);
      await writeBatch(t.store, {
        spoolId: "s",
        position: d,
        events,
        rawItems: [rawItem(p, at(d))],
        outcomes: [],
        spans: { spans: [span(p, at(d))], values: [] },
      });
    }
    const shortEvents = [11, 12, 13, 14, 15].map((d) => event(short, at(d, 6), { grouping: { config: "c", hashes: ["s"] } }));
    await writeBatch(t.store, { spoolId: "s", position: 16, events: shortEvents, rawItems: [], outcomes: [] });
    // Arrivals outside every day partition: far ahead (a clock set wrong) and long past (a spool digested very late).
    const future = event(p, "2099-01-01T00:00:00.000Z");
    const past = event(p, "2001-01-01T00:00:00.000Z");
    await writeBatch(t.store, { spoolId: "s", position: 17, events: [future, past], rawItems: [], outcomes: [] });
    assert.deepEqual(await where(future.eventId), ["events_default"], "an arrival outside every day is stored, in the DEFAULT partition");
    assert.deepEqual(await where(kept[day(2)]![0]!), ["events_p20300302"]);

    const before = Object.fromEntries(await Promise.all(PARTITIONED_TABLES.map(async (table) => [table, await bytesOf(table)] as const)));
    const droppedDays = [1, 2, 3, 4].map((d) => `p${day(d).replaceAll("-", "")}`);
    const doomed = Number(
      (
        await rows(
          sql<{
            b: string;
          }>`select sum(pg_total_relation_size(c.oid))::text as b from pg_class c where c.relname = any(${droppedDays.map((s) => `events_${s}`)})`,
        )
      )[0]!.b,
    );
    assert.ok(doomed > 4 * 10 * 4000, `the four oldest days of events take their bytes (${doomed})`);

    const lines: string[] = [];
    const job = new RetentionJob(
      t.store,
      { ...retentionSettings(DAYS), chunkRows: 3 },
      (l) => lines.push(l),
      () => NOW,
    );
    while (await job.step());

    // Days 1-4 end at or before the cutoff (2030-03-05T12:00): dropped whole, from every table. Day 5 holds the
    // cutoff and stays whole until it has passed; days ahead of today (the 16th-18th) are made.
    for (const table of PARTITIONED_TABLES) {
      const names = await partitions(table);
      for (const s of droppedDays) assert.ok(!names.includes(`${table}_${s}`), `${table}_${s} dropped`);
      for (let d = 5; d <= 18; d++) assert.ok(names.includes(`${table}_p${day(d).replaceAll("-", "")}`), `${table} keeps or makes ${day(d)}`);
      assert.ok((await bytesOf(table)) < before[table]!, `${table}: space given back (${before[table]} → ${await bytesOf(table)})`);
    }
    assert.ok(before.events! - (await bytesOf("events")) >= doomed, "at least the dropped days' bytes are gone from events");
    const droppedLine = lines.find((l) => l.includes("dropped the day partitions"));
    assert.ok(droppedLine, lines.join("\n"));
    assert.match(droppedLine, /events_p20300301, events_p20300302, events_p20300303, events_p20300304, event_users_/);
    assert.match(droppedLine, /MiB freed\)$/);

    // Recent days intact, to the event; day 5 kept whole although it began before the cutoff.
    const stored = new Set((await rows(sql<{ event_id: string }>`select event_id from events where project_id = ${p}`)).map((r) => r.event_id));
    for (let d = 1; d <= 15; d++) for (const id of kept[day(d)]!) assert.equal(stored.has(id), d >= 5, `${day(d)} ${id}`);
    assert.equal((await t.store.getEvent(p, kept[day(15)]![3]!))?.eventId, kept[day(15)]![3]);
    assert.equal((await rows(sql`select 1 from spans where received_at < '2030-03-05'`)).length, 0);
    assert.equal((await rows(sql`select 1 from spans`)).length, 11);
    assert.equal((await rows(sql`select 1 from raw_items`)).length, 11);
    // The project keeping 3 days lost its events before 2030-03-12T12:00 inside the kept days, row by row.
    assert.deepEqual(
      (await rows(sql<{ event_id: string }>`select event_id from events where project_id = ${short} order by event_id`)).map((r) => r.event_id),
      shortEvents.slice(2).map((e) => e.eventId),
    );
    assert.equal((await rows(sql`select 1 from event_users where project_id = ${short}`)).length, 3, "their user rows went with them");
    assert.equal((await rows(sql`select 1 from event_users where received_at < '2030-03-05'`)).length, 0);
    // Each stored event keeps its trace link, in its day's partition; the links of the events deleted went with them.
    const links = await rows(
      sql<{
        id: string;
        part: string;
      }>`select e.event_id as id, t.tableoid::regclass::text as part from trace_events t left join events e on e.id = t.event_row_id`,
    );
    assert.ok(
      links.every((l) => l.id !== null),
      "no link outlives its event",
    );
    assert.equal(links.length, (await rows(sql`select 1 from events`)).length);
    assert.deepEqual(links.find((l) => l.id === kept[day(15)]![3])?.part, "trace_events_p20300315");
    // Out of range: the long-past arrival was deleted from the DEFAULT partition, the far-future one stays.
    assert.equal(await t.store.getEvent(p, past.eventId), null);
    assert.equal((await t.store.getEvent(p, future.eventId))?.receivedAt, "2099-01-01T00:00:00.000Z");
  });

  test("a duplicate event id is found across days within the window, and a batch written again stores nothing twice", async () => {
    const first = event(p, at(14, 23));
    const r1 = await writeBatch(t.store, { spoolId: "d", position: 1, events: [first], rawItems: [], outcomes: [] });
    // The same batch again (after a crash), and the SDK's retry that arrived at another node an hour later, the next day.
    const again = await writeBatch(t.store, { spoolId: "d", position: 1, events: [first], rawItems: [], outcomes: [] });
    const retry = await writeBatch(t.store, { spoolId: "d", position: 2, events: [{ ...first, receivedAt: at(15, 0) }], rawItems: [], outcomes: [] });
    assert.deepEqual([r1.duplicates, again.duplicates, retry.duplicates], [0, 1, 1]);
    assert.deepEqual(await where(first.eventId), ["events_p20300314"]);
  });

  test("rows of a day without a partition wait in the DEFAULT partition and move into the day's when it is made, while another node writes", async () => {
    const early = Array.from({ length: 20 }, () => event(p, "2030-04-02T08:00:00.000Z"));
    await writeBatch(t.store, { spoolId: "m", position: 1, events: early, rawItems: [], outcomes: [] });
    assert.deepEqual([...new Set((await Promise.all(early.map((e) => where(e.eventId)))).flat())], ["events_default"]);
    const other = openDb({ dialect: "postgres", url });
    try {
      const node2 = createStore(other);
      const late = Array.from({ length: 20 }, () => event(p, "2030-04-02T09:00:00.000Z"));
      const [made] = await Promise.all([
        t.store.ensureDayPartitions(["2030-04-02"]),
        writeBatch(node2, { spoolId: "m2", position: 1, events: late, rawItems: [], outcomes: [] }),
      ]);
      // At least the 20 early events and their 20 user rows (one each); the other node's rows too if they came first.
      assert.ok(made.rows >= 40, `the day's rows moved out of the DEFAULT partition (${made.rows})`);
      const parts = new Set((await Promise.all([...early, ...late].map((e) => where(e.eventId)))).flat());
      assert.deepEqual([...parts], ["events_p20300402"], "every row of the day is in its partition, none lost");
      assert.equal((await rows(sql`select 1 from event_users_default where received_at like '2030-04-02%'`)).length, 0);
    } finally {
      await other.close();
    }
  });

  test("two nodes making and dropping partitions at once take turns: each partition made or dropped once, no error", async () => {
    const a = openDb({ dialect: "postgres", url });
    const b = openDb({ dialect: "postgres", url });
    try {
      const [sa, sb] = [createStore(a), createStore(b)];
      const days = ["2030-05-01", "2030-05-02", "2030-05-03"];
      const made = await Promise.all([sa.ensureDayPartitions(days), sb.ensureDayPartitions(days)]);
      const names = made.flatMap((m) => m.partitions).sort();
      assert.equal(names.length, days.length * PARTITIONED_TABLES.length, "each made once");
      assert.equal(new Set(names).size, names.length);
      await writeBatch(sa, { spoolId: "n", position: 1, events: [event(p, "2030-05-02T01:00:00.000Z")], rawItems: [], outcomes: [] });
      // The two nodes' retention passes at once, as when a claim ran out during a slow pass.
      const jobs = [sa, sb].map(
        (s) =>
          new RetentionJob(
            s,
            retentionSettings(DAYS),
            () => {},
            () => Date.parse("2030-05-20T00:00:00.000Z"),
          ),
      );
      const dropped = await Promise.all([sa.dropDayPartitionsBefore("2030-05-04T00:00:00.000Z"), sb.dropDayPartitionsBefore("2030-05-04T00:00:00.000Z")]);
      const gone = dropped.flatMap((d) => d.partitions).filter((x) => x.includes("2030050"));
      assert.equal(gone.length, days.length * PARTITIONED_TABLES.length, "each dropped once");
      await Promise.all(
        jobs.map(async (j) => {
          while (await j.step());
        }),
      );
      for (const table of PARTITIONED_TABLES) {
        const names2 = await partitions(table);
        for (const d of days) assert.ok(!names2.includes(`${table}_p${d.replaceAll("-", "")}`));
        assert.ok(names2.includes(`${table}_p20300520`) && names2.includes(`${table}_p20300523`), `${table}: the job's days ahead made`);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});
