// Migrations 0039 (event_users) and 0040 (trace_events) on SQLite with data in it, a database at 0038: 0024's user
// rows (one per part of the user, and the key) become one row per event, named by events.id, the parts in columns and
// the key kept only where the parts do not give it; 0013's trace links become one per event, named likewise. The store
// finds the events by each part and by trace as before, and both rows go with their event, whatever deletes it.
// PostgreSQL's conversion (event_users into the same day partitions) is checked in migration-0029.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "kysely";
import { openDb } from "../../src/storage/db";
import { encodeEventData } from "../../src/storage/event-codec";
import { createStore } from "../../src/storage/kysely";
import { migrateToLatest } from "../../src/storage/migrate";
import { oldProject } from "./migration-rows";

const hex = (n: number) => n.toString(16).padStart(32, "0");

test("0039-event-users-per-event gathers each event's user rows into one, keeping a key only where its parts do not give it; 0040-trace-events-per-event names each trace link by its event; both go with their event", async () => {
  const db = openDb({ dialect: "sqlite", file: ":memory:" });
  try {
    await migrateToLatest(db, "0038-segment-index");
    const k = db.kysely;
    const now = new Date().toISOString();
    const project = await oldProject(k, now);
    const org = (await k.selectFrom("projects").select("organization_id").where("id", "=", project.id).executeTakeFirstOrThrow()).organization_id;
    const events = await k
      .insertInto("events")
      .values(
        [1, 2, 3].map((n) => ({
          project_id: project.id,
          event_id: hex(n),
          type: "error",
          received_at: now,
          timestamp: now,
          platform: "python",
          level: "error",
          title: `E${n}`,
          message: "",
          culprit: "",
          release: null,
          environment: null,
          size: 2,
          data: encodeEventData("{}"),
          issue_id: null,
        })),
      )
      .returning(["id", "event_id"])
      .execute();
    // Event 1: id, e-mail and IP, counted by its id. Event 2: an e-mail, counted by an IP address it does not name
    // (a key the parts do not give). Event 3: no user. A row whose event is gone is left behind.
    await sql`insert into event_users (project_id, event_id, issue_id, field, value) values
      (${project.id}, ${hex(1)}, null, 'id', '42'), (${project.id}, ${hex(1)}, null, 'email', 'ann@example.com'),
      (${project.id}, ${hex(1)}, null, 'ip', '192.0.2.1'), (${project.id}, ${hex(1)}, null, 'key', 'id:42'),
      (${project.id}, ${hex(2)}, null, 'email', 'bob@example.com'), (${project.id}, ${hex(2)}, null, 'key', 'ip:192.0.2.9'),
      (${project.id}, ${hex(9)}, null, 'id', 'gone')`.execute(k);
    // 0013's trace links: events 1 and 3 name a trace; a link whose event is gone is left behind.
    await sql`insert into trace_events (trace_id, project_id, event_id, issue_id, received_at) values
      (${"a".repeat(32)}, ${project.id}, ${hex(1)}, null, ${now}), (${"a".repeat(32)}, ${project.id}, ${hex(3)}, null, ${now}),
      (${"b".repeat(32)}, ${project.id}, ${hex(9)}, null, ${now})`.execute(k);

    await migrateToLatest(db);
    const rows = await k.selectFrom("event_users").selectAll().orderBy("event_row_id").execute();
    assert.deepEqual(
      rows.map((r) => [r.event_row_id, r.project_id, r.user_id, r.email, r.username, r.ip, r.user_key]),
      [
        [events[0]!.id, project.id, "42", "ann@example.com", null, "192.0.2.1", null],
        [events[1]!.id, project.id, null, "bob@example.com", null, null, "ip:192.0.2.9"],
      ],
    );
    const store = createStore(db);
    for (const [field, value] of [
      ["id", "42"],
      ["email", "ann@example.com"],
      ["ip", "192.0.2.1"],
    ] as const) {
      const found = await store.findUserEvents([project.id], [field], value, 10);
      assert.deepEqual(
        found.map((m) => [m.eventId, m.fields]),
        [[hex(1), [field]]],
        `found by ${field}`,
      );
    }
    const any = await store.findUserEvents("all", ["id", "email", "username", "ip"], "bob@example.com", 10);
    assert.deepEqual(
      any.map((m) => [m.eventId, m.fields]),
      [[hex(2), ["email"]]],
    );
    // Each part is found through its own index.
    const plan = (await sql<{ detail: string }>`explain query plan select event_row_id from event_users where email = ${"x"} or ip = ${"y"}`.execute(k)).rows
      .map((r) => r.detail)
      .join("; ");
    assert.match(plan, /event_users_email_idx/);
    assert.match(plan, /event_users_ip_idx/);

    // 0040: one trace link per event, named by its id; the trace view finds the trace's events through it.
    assert.deepEqual(await k.selectFrom("trace_events").selectAll().orderBy("event_row_id").execute(), [
      { event_row_id: events[0]!.id, trace_id: "a".repeat(32) },
      { event_row_id: events[2]!.id, trace_id: "a".repeat(32) },
    ]);
    assert.deepEqual((await store.traceErrors(org, "a".repeat(32), 10)).map((e) => e.eventId).sort(), [hex(1), hex(3)]);

    await k.deleteFrom("events").where("id", "=", events[0]!.id).execute();
    assert.deepEqual(
      (await k.selectFrom("event_users").select("event_row_id").execute()).map((r) => r.event_row_id),
      [events[1]!.id],
      "the event's user row went with it (foreign key)",
    );
    assert.deepEqual(
      (await k.selectFrom("trace_events").select("event_row_id").execute()).map((r) => r.event_row_id),
      [events[2]!.id],
      "and its trace link",
    );
  } finally {
    await db.close();
  }
});
