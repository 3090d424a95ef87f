// The digest's release-health writes (storage/session-ports.ts SessionTx) inside its batch transaction, for SQLite and
// PostgreSQL: session states are replaced whole, counts are upserts that add, users are upserts that widen.
import { type RawBuilder, type Transaction, sql } from "kysely";
import type { Dialect } from "../db";
import type { Database } from "../schema";
import type { SessionCountIncrement, SessionState, SessionStatus, SessionTx, SessionUserSighting } from "../session-ports";
import { chunks, keepFirst, projectVersionKey, scalarMinMax, seenRange, sumBy, widenSeen } from "./batch-rows";
import { dbBool, nowIso, toBool } from "./shared";

/** The first key of the session-state advisory locks (the second is the project id): "FLSS", Faultline's sessions. */
const SESSION_STATES_LOCK = 0x464c5353;

// The batch's summing keys and merges, at module level (batch-rows.ts sumBy says why).
const sessionHourKey = (r: SessionCountIncrement) => `${r.projectId}\u0000${r.release}\u0000${r.environment}\u0000${r.hour}`;
function addSessionCounts(into: SessionCountIncrement, from: SessionCountIncrement): void {
  into.started += from.started;
  into.errored += from.errored;
  into.crashed += from.crashed;
  into.abnormal += from.abnormal;
}
const sessionUserKey = (r: SessionUserSighting) => `${r.projectId}\u0000${r.release}\u0000${r.environment}\u0000${r.distinctId}`;
function addSessionUser(into: SessionUserSighting & { first: string; last: string }, from: SessionUserSighting & { first: string; last: string }): void {
  into.crashed ||= from.crashed;
  widenSeen(into, from);
}

export function sessionTx(trx: Transaction<Database>, dialect: Dialect): SessionTx {
  const { greatest } = scalarMinMax(dialect);
  const col = (name: string) => sql.ref(`release_session_users.${name}`);
  return {
    async lockSessionStates(projectIds) {
      if (dialect !== "postgres") return;
      for (const id of [...new Set(projectIds)].sort((x, y) => x - y)) await sql`select pg_advisory_xact_lock(${SESSION_STATES_LOCK}, ${id})`.execute(trx);
    },

    async sessionStates(projectId, sessionIds) {
      const out = new Map<string, SessionState>();
      for (const part of chunks([...new Set(sessionIds)])) {
        const rows = await trx.selectFrom("release_session_states").selectAll().where("project_id", "=", projectId).where("session_id", "in", part).execute();
        for (const r of rows) {
          out.set(r.session_id, {
            sessionId: r.session_id,
            release: r.release,
            environment: r.environment,
            hour: r.hour,
            distinctId: r.distinct_id,
            errored: toBool(r.errored),
            status: r.status as SessionStatus,
          });
        }
      }
      return out;
    },

    async saveSessionStates(projectId, states) {
      for (const part of chunks(states)) {
        await trx
          .insertInto("release_session_states")
          .values(
            part.map((s) => ({
              project_id: projectId,
              session_id: s.sessionId,
              release: s.release,
              environment: s.environment,
              hour: s.hour,
              distinct_id: s.distinctId,
              errored: dbBool(dialect, s.errored),
              status: s.status,
            })),
          )
          .onConflict((oc) =>
            oc
              .columns(["project_id", "session_id"])
              .doUpdateSet((eb) => ({ distinct_id: eb.ref("excluded.distinct_id"), errored: eb.ref("excluded.errored"), status: eb.ref("excluded.status") })),
          )
          .execute();
      }
    },

    async pruneSessionStates(beforeHour) {
      await trx.deleteFrom("release_session_states").where("hour", "<", beforeHour).execute();
    },

    async countSessions(rows) {
      const summed = sumBy(rows, sessionHourKey, addSessionCounts);
      for (const part of chunks(summed)) {
        await trx
          .insertInto("release_session_counts")
          .values(
            part.map((r) => ({
              project_id: r.projectId,
              release: r.release,
              environment: r.environment,
              hour: r.hour,
              started: r.started,
              errored: r.errored,
              crashed: r.crashed,
              abnormal: r.abnormal,
            })),
          )
          .onConflict((oc) =>
            oc.columns(["project_id", "release", "environment", "hour"]).doUpdateSet((eb) => ({
              started: eb("release_session_counts.started", "+", eb.ref("excluded.started")),
              errored: eb("release_session_counts.errored", "+", eb.ref("excluded.errored")),
              crashed: eb("release_session_counts.crashed", "+", eb.ref("excluded.crashed")),
              abnormal: eb("release_session_counts.abnormal", "+", eb.ref("excluded.abnormal")),
            })),
          )
          .execute();
      }
    },

    async sightSessionUsers(rows) {
      const merged = sumBy(rows.map(seenRange), sessionUserKey, addSessionUser);
      for (const part of chunks(merged)) {
        await trx
          .insertInto("release_session_users")
          .values(
            part.map((r) => ({
              project_id: r.projectId,
              release: r.release,
              environment: r.environment,
              distinct_id: r.distinctId,
              crashed: dbBool(dialect, r.crashed),
              first_seen: r.first,
              last_seen: r.last,
            })),
          )
          .onConflict((oc) =>
            oc.columns(["project_id", "release", "environment", "distinct_id"]).doUpdateSet({
              // Booleans on PostgreSQL, 0 and 1 on SQLite: "or" is the dialect's max in both.
              crashed: (dialect === "postgres"
                ? sql`(${col("crashed")} or excluded.crashed)`
                : sql`max(${col("crashed")}, excluded.crashed)`) as RawBuilder<boolean>,
              last_seen: greatest(col("last_seen"), sql.ref("excluded.last_seen")) as RawBuilder<string>,
            }),
          )
          .execute();
      }
    },

    async ensureReleases(rows) {
      const unique = sumBy(rows, projectVersionKey, keepFirst);
      if (unique.length === 0) return;
      const projects = await trx
        .selectFrom("projects")
        .select(["id", "organization_id"])
        .where("id", "in", [...new Set(unique.map((r) => r.projectId))])
        .execute();
      const orgOf = new Map(projects.map((p) => [p.id, p.organization_id]));
      const now = nowIso();
      for (const r of unique) {
        const organizationId = orgOf.get(r.projectId);
        if (organizationId === undefined) continue;
        await trx
          .insertInto("releases")
          .values({ organization_id: organizationId, version: r.version, created_at: now })
          .onConflict((oc) => oc.columns(["organization_id", "version"]).doNothing())
          .execute();
        const release = await trx
          .selectFrom("releases")
          .select("id")
          .where("organization_id", "=", organizationId)
          .where("version", "=", r.version)
          .executeTakeFirstOrThrow();
        await trx
          .insertInto("release_projects")
          .values({ release_id: release.id, project_id: r.projectId, new_issues: 0, first_event: null, last_event: null })
          .onConflict((oc) => oc.columns(["release_id", "project_id"]).doNothing())
          .execute();
      }
    },
  };
}
