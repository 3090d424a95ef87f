// Migrations are forward-only and run at start: from an empty database, and from every earlier schema
// (each released migration prefix) with data in it, on SQLite and on PostgreSQL.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { type OpenDbOptions, openDb } from "../../src/storage/db";
import { EVENT_CODEC, encodeEventData } from "../../src/storage/event-codec";
import { createStore } from "../../src/storage/kysely";
import { migrateToLatest, migrationsFor } from "../../src/storage/migrate";
import { findInternalProject, internalDsn } from "../../src/core/internal-project";
import { freshPgDatabase } from "../helpers/pg";
import { carriesDataIntoDayPartitions } from "./migration-0029";
import { oldIssue } from "./migration-rows";

type Fresh = { options: OpenDbOptions; drop: () => Promise<void> };
const dialects: Record<string, () => Promise<Fresh>> = {
  sqlite: async () => ({ options: { dialect: "sqlite", file: ":memory:" }, drop: async () => {} }),
  postgres: async () => {
    const db = await freshPgDatabase(`migrations_${randomBytes(4).toString("hex")}`);
    return { options: { dialect: "postgres", url: db.url }, drop: db.drop };
  },
};

for (const [dialect, fresh] of Object.entries(dialects)) {
  describe(`migrations on ${dialect}`, () => {
    test("an empty database migrates to the latest schema, and a second run applies nothing", async () => {
      const f = await fresh();
      const db = openDb(f.options);
      try {
        const names = Object.keys(migrationsFor(db.dialect));
        assert.deepEqual(await migrateToLatest(db), names);
        assert.deepEqual(await migrateToLatest(db), []);
        const store = createStore(db);
        assert.equal(await store.countUsers(), 0);
      } finally {
        await db.close();
        await f.drop();
      }
    });

    test("no migration can be undone (forward-only)", () => {
      for (const [name, m] of Object.entries(migrationsFor(dialect === "sqlite" ? "sqlite" : "postgres"))) assert.equal(m.down, undefined, name);
    });

    test("0014-internal-project makes the self-monitoring project once, in an organization of its own with no members, beside a taken slug", async () => {
      const f = await fresh();
      const db = openDb(f.options);
      try {
        await migrateToLatest(db, "0012-org-auth-tokens");
        await db.kysely.insertInto("organizations").values({ slug: "faultline-internal", name: "Someone's", created_at: new Date().toISOString() }).execute();
        await migrateToLatest(db);
        assert.deepEqual(await migrateToLatest(db), []);
        const store = createStore(db);
        const internal = await findInternalProject(store);
        assert.ok(internal);
        assert.equal(internal.organization.slug, "faultline-internal-2");
        assert.equal(internal.project.slug, "faultline");
        assert.equal(internal.key?.isActive, true);
        assert.deepEqual(await store.listMembers(internal.organization.id), []);
        assert.equal((await db.kysely.selectFrom("projects").select("id").execute()).length, 1, "one internal project");
        assert.equal(
          await internalDsn(store, "https://errors.example.com", "/monitor"),
          `https://${internal.key?.publicKey}@errors.example.com/monitor/${internal.project.id}`,
        );
        // Every key disabled: no DSN, so self-monitoring sends nothing, as any SDK with a disabled key.
        await store.updateKey(internal.project.id, internal.key!.id, { isActive: false });
        assert.equal(await internalDsn(store, "https://errors.example.com", ""), null);
        await store.deleteProject(internal.project.id);
        assert.equal(await findInternalProject(store), null);
      } finally {
        await db.close();
        await f.drop();
      }
    });

    test("hostile input #12: 0019-invitation-email ends the open links made for whoever held them; accepted ones stay as they were", async () => {
      const f = await fresh();
      const db = openDb(f.options);
      try {
        await migrateToLatest(db, "0016-scrape-javascript");
        const k = db.kysely;
        const created = "2026-11-20T10:00:00.000Z";
        const later = new Date(Date.now() + 86_400_000).toISOString();
        const org = await k.insertInto("organizations").values({ slug: "o", name: "O", created_at: created }).returning("id").executeTakeFirstOrThrow();
        const row = { organization_id: org.id, role: "member", created_by: null, created_at: created, expires_at: later, accepted_by: null, accepted_at: null };
        await k
          .insertInto("invitations")
          .values([
            { ...row, token_hash: "open" },
            { ...row, token_hash: "used", accepted_at: created },
          ] as never)
          .execute();
        await migrateToLatest(db);
        const store = createStore(db);
        const open = await store.getInvitationByHash("open");
        assert.deepEqual([open?.email, open?.expiresAt], [null, created], "ended: it names no address");
        assert.equal(await store.acceptInvitation("open", "anyone", new Date().toISOString()), "invalid");
        const used = await store.getInvitationByHash("used");
        assert.deepEqual([used?.email, used?.expiresAt, used?.acceptedAt], [null, later, created]);
      } finally {
        await db.close();
        await f.drop();
      }
    });

    test("0033-audit-log moves the erasures 0024 recorded into the audit trail, with the same facts, and drops their table", async () => {
      const f = await fresh();
      const db = openDb(f.options);
      try {
        await migrateToLatest(db, "0032-token-scopes");
        const k = db.kysely as unknown as import("kysely").Kysely<Record<string, Record<string, unknown>>>;
        const org = await k
          .insertInto("organizations")
          .values({ slug: "erasing", name: "Erasing", created_at: "2026-01-01T00:00:00.000Z" })
          .returning("id")
          .executeTakeFirstOrThrow();
        await k
          .insertInto("personal_data_erasures")
          .values({
            organization_id: org.id,
            actor_user_id: "gone-user",
            field: "email",
            value_sha256: "ab".repeat(32),
            counts: '{"events":3,"attachments":1,"tagValues":2,"users":1,"projects":1}',
            created_at: "2026-02-01T10:00:00.000Z",
          })
          .execute();
        await migrateToLatest(db);
        const store = createStore(db);
        const entries = await store.listAudit({ organizationId: Number(org.id), limit: 10 });
        assert.equal(entries.length, 1);
        const [e] = entries;
        assert.deepEqual(
          [e!.event, e!.actorUserId, e!.actorLabel, e!.createdAt],
          ["personal-data.erase", "gone-user", "gone-user", "2026-02-01T10:00:00.000Z"],
        );
        assert.deepEqual(JSON.parse(e!.data), {
          field: "email",
          valueSha256: "ab".repeat(32),
          counts: { events: 3, attachments: 1, tagValues: 2, users: 1, projects: 1 },
        });
        await assert.rejects(k.selectFrom("personal_data_erasures").selectAll().execute());
      } finally {
        await db.close();
        await f.drop();
      }
    });

    test("0007-issue-triage fills user counts and daily counters from the rows 0004 kept", async () => {
      const f = await fresh();
      const db = openDb(f.options);
      try {
        await migrateToLatest(db, "0004-issues");
        const k = db.kysely;
        const now = "2026-11-23T10:00:00.000Z";
        const org = await k.insertInto("organizations").values({ slug: "o", name: "O", created_at: now }).returning("id").executeTakeFirstOrThrow();
        const project = await k
          .insertInto("projects")
          .values({
            organization_id: org.id,
            team_id: null,
            slug: "p",
            name: "P",
            platform: null,
            created_at: now,
            rate_limit_count: null,
            rate_limit_window: null,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        const issue = oldIssue(project.id, now);
        const { id } = await k
          .insertInto("issues")
          .values({ ...issue, short_id: 1 } as never)
          .returning("id")
          .executeTakeFirstOrThrow();
        await k
          .insertInto("issue_users")
          .values(["id:1", "id:2"].map((user_key) => ({ issue_id: id, user_key, first_seen: now, last_seen: now })))
          .execute();
        await k
          .insertInto("issue_counts")
          .values([
            { issue_id: id, hour: "2026-11-22T23:00:00Z", count: 1 },
            { issue_id: id, hour: "2026-11-23T09:00:00Z", count: 1 },
            { issue_id: id, hour: "2026-11-23T10:00:00Z", count: 1 },
          ])
          .execute();
        await migrateToLatest(db);
        const store = createStore(db);
        assert.equal((await store.getIssue(id))?.userCount, 2);
        assert.deepEqual((await store.issueDailyCountsOf([id], "2026-11-01")).get(id), [
          { day: "2026-11-22", count: 1 },
          { day: "2026-11-23", count: 2 },
        ]);
      } finally {
        await db.close();
        await f.drop();
      }
    });

    test("events stored as JSON text before 0006 read back unchanged after it, next to compressed ones", async () => {
      const f = await fresh();
      const db = openDb(f.options);
      try {
        await migrateToLatest(db, "0004-issues");
        const now = new Date().toISOString();
        const org = await db.kysely
          .insertInto("organizations")
          .values({ slug: "old-org", name: "Old", created_at: now })
          .returning("id")
          .executeTakeFirstOrThrow();
        const project = await db.kysely
          .insertInto("projects")
          .values({
            organization_id: org.id,
            team_id: null,
            slug: "web",
            name: "Web",
            platform: null,
            created_at: now,
            rate_limit_count: null,
            rate_limit_window: null,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        const json = JSON.stringify({ message: "grüße from an old release", tags: [["plan", "pro"]], user: { id: "7" } });
        const row = {
          project_id: project.id,
          type: "default",
          received_at: now,
          timestamp: now,
          platform: "other",
          level: "error",
          title: "old",
          message: "old",
          culprit: "",
          release: null,
          environment: null,
          size: json.length,
          issue_id: null,
        };
        await db.kysely
          .insertInto("events")
          .values({ ...row, event_id: "a".repeat(32), data: json })
          .execute();
        await migrateToLatest(db);
        await db.kysely
          .insertInto("events")
          .values({ ...row, event_id: "b".repeat(32), data: encodeEventData(json) })
          .execute();
        const store = createStore(db);
        assert.equal((await store.getEvent(project.id, "a".repeat(32)))?.data, json);
        assert.equal((await store.getEvent(project.id, "b".repeat(32)))?.data, json);
        const raw = await db.kysely.selectFrom("events").select(["event_id", "data"]).orderBy("event_id").execute();
        assert.equal(typeof raw[1]?.data === "string" ? raw[1].data[0] : raw[1]?.data[0], EVENT_CODEC.deflateDictionary1, "new rows are compressed");
        assert.deepEqual(
          (await store.listEvents(project.id, "errors", { limit: 10 })).items.map((e) => e.data),
          [json, json],
        );
      } finally {
        await db.close();
        await f.drop();
      }
    });

    if (dialect === "postgres") {
      test("0037-attachment-chunk-times dates the chunks stored before it with the migration's time, and new chunks with their write's", async () => {
        const f = await fresh();
        const db = openDb(f.options);
        try {
          await migrateToLatest(db, "0036-session-last-seen");
          const data = Buffer.from([1, 2, 3]);
          await db.kysely
            .insertInto("attachment_chunks")
            .values([0, 1].map((seq) => ({ blob_key: "k-before", seq, data })))
            .execute();
          const from = Date.now() - 1000;
          await migrateToLatest(db);
          const until = Date.now() + 1000;
          const rows = await db.kysely.selectFrom("attachment_chunks").selectAll().orderBy("seq").execute();
          assert.deepEqual(
            rows.map((r) => [r.blob_key, r.seq, Buffer.from(r.data).toString("hex")]),
            [
              ["k-before", 0, "010203"],
              ["k-before", 1, "010203"],
            ],
          );
          for (const r of rows)
            assert.ok(r.created_at.getTime() >= from && r.created_at.getTime() <= until, `${r.created_at.toISOString()}: the migration's time`);
          const store = createStore(db);
          await store.attachmentBlobs.write("k-after", new Uint8Array([4]));
          const listed = (await store.attachmentBlobs.listBlobs("", 10)).blobs;
          assert.deepEqual(
            listed.map((b) => b.key),
            ["k-after", "k-before"],
          );
          assert.ok(listed.every((b) => b.writtenAt >= from && b.writtenAt <= Date.now() + 1000));
        } finally {
          await db.close();
          await f.drop();
        }
      });

      test("0029-day-partitions turns events, their user rows, spans and kept items into day partitions with their rows, ids and lookups intact", async () => {
        const f = await fresh();
        const db = openDb(f.options);
        try {
          await carriesDataIntoDayPartitions(db);
        } finally {
          await db.close();
          await f.drop();
        }
      });
    }

    for (const previous of Object.keys(migrationsFor("sqlite"))) {
      test(`a database at ${previous} with data upgrades to the latest schema and keeps its data`, async () => {
        const f = await fresh();
        const db = openDb(f.options);
        try {
          await migrateToLatest(db, previous);
          const now = new Date().toISOString();
          // Rows written with the columns that existed at the first release, as that release wrote them.
          await db.kysely
            .insertInto("users")
            .values({
              id: "u1",
              name: "Old",
              email: "old@example.com",
              email_verified: dialect === "sqlite" ? 0 : false,
              image: null,
              created_at: dialect === "sqlite" ? now : new Date(now),
              updated_at: dialect === "sqlite" ? now : new Date(now),
              is_superuser: dialect === "sqlite" ? 1 : true,
            })
            .execute();
          const org = await db.kysely
            .insertInto("organizations")
            .values({ slug: "old-org", name: "Old", created_at: now })
            .returning("id")
            .executeTakeFirstOrThrow();
          await db.kysely.insertInto("members").values({ organization_id: org.id, user_id: "u1", role: "owner", created_at: now }).execute();
          await migrateToLatest(db);
          const store = createStore(db);
          assert.equal((await store.getUserByEmail("old@example.com"))?.isSuperuser, true);
          assert.equal((await store.getMembership(org.id, "u1"))?.role, "owner");
        } finally {
          await db.close();
          await f.drop();
        }
      });
    }
  });
}
