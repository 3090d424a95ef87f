// Migration 0029 on PostgreSQL with data in it (run by migrations.test.ts): a database at 0028 with events on two days
// (one row with an arrival that names no day), their user rows, a span and a kept item becomes day partitions, each
// row in its day's partition (or the DEFAULT one), with its id, its bytes and every lookup by event id intact, the id
// sequences carrying on, and duplicates still found; then the later migrations that rework these tables (0039 event_users,
// 0040 and 0041 trace_events) keep each row in its day.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { Db } from "../../src/storage/db";
import { encodeEventData } from "../../src/storage/event-codec";
import { createStore } from "../../src/storage/kysely";
import { migrateToLatest } from "../../src/storage/migrate";
import { oldProject } from "./migration-rows";

const DAY1 = "2026-10-01T08:00:00.000Z";
const DAY2 = "2026-10-02T23:59:59.999Z";
const hex = (n: number) => n.toString(16).padStart(32, "0");

export async function carriesDataIntoDayPartitions(db: Db): Promise<void> {
  await migrateToLatest(db, "0028-user-feedback");
  const k = db.kysely;
  const now = new Date().toISOString();
  const project = await oldProject(k, now);
  const row = (n: number, receivedAt: string) => {
    const json = JSON.stringify({ event_id: hex(n), message: `event ${n}` });
    return {
      project_id: project.id,
      event_id: hex(n),
      type: "error",
      received_at: receivedAt,
      timestamp: receivedAt,
      platform: "python",
      level: "error",
      title: `E${n}`,
      message: "",
      culprit: "",
      release: null,
      environment: null,
      size: json.length,
      data: encodeEventData(json),
      issue_id: null,
    };
  };
  const inserted = await k
    .insertInto("events")
    .values([row(1, DAY1), row(2, DAY2), row(3, "not a date")])
    .returning(["id", "event_id"])
    .execute();
  // 0024's rows, one per part: event 1's key is its id's, event 2's is not its first part's.
  await sql`insert into event_users (project_id, event_id, issue_id, field, value) values
    (${project.id}, ${hex(1)}, null, 'id', 'user1'), (${project.id}, ${hex(1)}, null, 'key', 'id:user1'),
    (${project.id}, ${hex(2)}, null, 'id', 'user2'), (${project.id}, ${hex(2)}, null, 'email', 'b@example.com'),
    (${project.id}, ${hex(2)}, null, 'key', 'ip:192.0.2.1')`.execute(k);
  // 0013's trace link of event 2.
  await sql`insert into trace_events (trace_id, project_id, event_id, issue_id, received_at) values (${"c".repeat(32)}, ${project.id}, ${hex(2)}, null, ${DAY2})`.execute(
    k,
  );
  await k
    .insertInto("spans")
    .values({
      project_id: project.id,
      trace_id: "a".repeat(32),
      span_id: "b".repeat(16),
      parent_span_id: null,
      segment_id: null,
      is_segment: true,
      transaction: "t",
      op: "http",
      description: "",
      status: "ok",
      start_time: DAY1,
      duration_ms: 5,
      environment: null,
      release: null,
      event_id: null,
      received_at: DAY1,
    })
    .execute();
  await k
    .insertInto("raw_items")
    .values({ project_id: project.id, type: "attachment", event_id: hex(2), received_at: DAY2, headers: "{}", payload: Buffer.from("bytes") })
    .execute();

  await migrateToLatest(db, "0029-day-partitions");

  const rows = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(k)).rows;
  const partsOf = async (table: string) =>
    (
      await rows(
        sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = to_regclass(${table})`,
      )
    ).map((r) => r.name);
  const today = now.slice(0, 10).replaceAll("-", "");
  for (const table of ["events", "event_users", "spans", "raw_items"]) {
    const parts = await partsOf(table);
    for (const name of [`${table}_default`, `${table}_p${today}`]) assert.ok(parts.includes(name), `${table}: ${name} in ${parts.join()}`);
  }
  assert.equal((await rows(sql<{ t: string | null }>`select to_regclass('events_unpartitioned')::text as t`))[0]?.t, null, "the old table is gone");
  assert.equal(
    (await rows(sql<{ s: string }>`select pg_get_serial_sequence('events', 'id') as s`))[0]?.s,
    "public.events_id_seq",
    "the id sequence belongs to the new table",
  );

  const where = await rows(sql<{ id: number; event_id: string; part: string }>`select id, event_id, tableoid::regclass::text as part from events order by id`);
  assert.deepEqual(
    where.map((r) => [r.id, r.event_id, r.part]),
    [
      [inserted[0]!.id, hex(1), "events_p20261001"],
      [inserted[1]!.id, hex(2), "events_p20261002"],
      [inserted[2]!.id, hex(3), "events_default"],
    ],
  );
  const users = await rows(
    sql<{
      event_id: string;
      received_at: string;
      part: string;
    }>`select event_id, received_at, tableoid::regclass::text as part from event_users order by event_id`,
  );
  assert.deepEqual(
    users.map((u) => [u.event_id, u.received_at, u.part]),
    [
      [hex(1), DAY1, "event_users_p20261001"],
      [hex(1), DAY1, "event_users_p20261001"],
      [hex(2), DAY2, "event_users_p20261002"],
      [hex(2), DAY2, "event_users_p20261002"],
      [hex(2), DAY2, "event_users_p20261002"],
    ],
  );
  assert.deepEqual(await rows(sql`select tableoid::regclass::text as part, received_at from spans`), [{ part: "spans_p20261001", received_at: DAY1 }]);
  assert.deepEqual(await rows(sql`select tableoid::regclass::text as part, convert_from(payload, 'UTF8') as payload from raw_items`), [
    { part: "raw_items_p20261002", payload: "bytes" },
  ]);

  // 0039: one user row per event, named by the event's id, in the same day partitions; a key the parts give is not kept.
  await migrateToLatest(db);
  const perEvent = await rows(
    sql<{
      event_row_id: string;
      user_id: string;
      email: string | null;
      user_key: string | null;
      part: string;
    }>`select event_row_id, user_id, email, user_key, tableoid::regclass::text as part from event_users order by event_row_id`,
  );
  assert.deepEqual(
    perEvent.map((u) => [Number(u.event_row_id), u.user_id, u.email, u.user_key, u.part]),
    [
      [inserted[0]!.id, "user1", null, null, "event_users_p20261001"],
      [inserted[1]!.id, "user2", "b@example.com", "ip:192.0.2.1", "event_users_p20261002"],
    ],
  );
  const userParts = await partsOf("event_users");
  for (const name of ["event_users_default", `event_users_p${today}`]) assert.ok(userParts.includes(name), `${name} in ${userParts.join()}`);
  assert.equal((await rows(sql<{ t: string | null }>`select to_regclass('event_users_by_field')::text as t`))[0]?.t, null, "the old table is gone");
  // 0040: the trace link, named by its event's id, keeps its project and arrival; 0041: in its event's day partition.
  assert.deepEqual(
    (
      await rows(
        sql<{
          event_row_id: string;
          trace_id: string;
          project_id: number;
          received_at: string;
          part: string;
        }>`select event_row_id, trace_id, project_id, received_at, tableoid::regclass::text as part from trace_events`,
      )
    ).map((r) => [Number(r.event_row_id), r.trace_id, r.project_id, r.received_at, r.part]),
    [[inserted[1]!.id, "c".repeat(32), project.id, DAY2, "trace_events_p20261002"]],
  );
  // Each day of the events has its trace links' partition, under the same bounds.
  const eventDays = (await partsOf("events")).map((name) => name.replace(/^events_/, "trace_events_")).sort();
  assert.deepEqual((await partsOf("trace_events")).sort(), eventDays);
  assert.equal((await rows(sql<{ t: string | null }>`select to_regclass('trace_events_unpartitioned')::text as t`))[0]?.t, null, "the old table is gone");

  const store = createStore(db);
  assert.equal((await store.getEvent(project.id, hex(2)))?.data, JSON.stringify({ event_id: hex(2), message: "event 2" }));
  assert.deepEqual(
    (await store.listEvents(project.id, "errors", { limit: 10 })).items.map((e) => e.eventId),
    [hex(3), hex(2), hex(1)],
  );
  const event = (n: number, receivedAt: string): DigestedEvent => ({
    projectId: project.id,
    eventId: hex(n),
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
    size: 2,
    data: "{}",
    category: "error",
    grouping: { config: "c", hashes: ["h"] },
    metadata: "{}",
    userKey: null,
    tags: [],
  });
  // An event stored before the migration arrives again an hour later: a duplicate. A new one continues the ids.
  const result = await writeBatch(store, {
    spoolId: "s",
    position: 1,
    events: [event(2, "2026-10-03T00:59:59.999Z"), event(4, now)],
    rawItems: [],
    outcomes: [],
  });
  assert.equal(result.duplicates, 1);
  const fresh = await rows(sql<{ id: number; part: string }>`select id, tableoid::regclass::text as part from events where event_id = ${hex(4)}`);
  assert.ok(fresh[0]!.id > inserted[2]!.id, "ids carry on from the old table's sequence");
  assert.equal(fresh[0]!.part, `events_p${today}`);
}
