// A metric alert's aggregate over a window [start, end), on SQLite and PostgreSQL alike (core/metric-alert-defs.ts
// names them). Sources, and how exact each is about the window's edges:
// - count(): error events (every type but transactions) by arrival time (events.received_at, indexed per project
//   by migration 0022): minute-exact.
// - count_unique(user): distinct users of the issues of the scope whose last event (issue_users.last_seen, the
//   event's own timestamp) falls in the window: minute-exact, a user counted once across issues.
// - crash-free sessions: release_session_counts, kept per hour a session started: HOURLY; the hours that overlap
//   the window count whole (a 60-minute window at 10:30 reads 09:00 and 10:00).
// - crash-free users: release_session_users seen (a session started) in the window, minute-exact; a user counts as
//   crashed if any of their sessions of that release and environment crashed, which is kept for the user's whole
//   time in the release, not per window.
// - p50/p75/p95(transaction.duration), failure_rate(), apdex(T): transactions (segment spans) that started in the
//   window: minute-exact. Percentiles are exact, interpolated between the two nearest ranks (PostgreSQL's
//   percentile_cont), never the rollups' histogram.
import { hourOf } from "../../core/hours";
import type { MetricQuery } from "../metric-alert-ports";
import { type Ctx, dbBool } from "./shared";

/** Statuses Sentry does not count as failures (its failure_rate()): ok, cancelled, unknown. */
const NOT_FAILURES = ["ok", "cancelled", "unknown", ""];

const filter = (q: MetricQuery, key: string): string | null => q.filters.find((f) => f.key === key)?.value ?? null;

/** Percent, 3 decimals, as Sentry rounds crash-free rates for alerts. */
const crashFree = (total: number, crashed: number): number | null => (total > 0 ? Math.round((1 - crashed / total) * 100_000) / 1000 : null);

export async function metricValue({ db, dialect }: Ctx, q: MetricQuery): Promise<number | null> {
  // The scope's projects, read first: an organization has tens of projects, and every query below narrows by them.
  const projectIds =
    q.projectId !== null
      ? [q.projectId]
      : (await db.selectFrom("projects").select("id").where("organization_id", "=", q.organizationId).execute()).map((p) => p.id);
  if (projectIds.length === 0) return q.kind.kind === "count" || q.kind.kind === "users" ? 0 : null;

  switch (q.kind.kind) {
    case "count": {
      let query = db
        .selectFrom("events")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("project_id", "in", projectIds)
        .where("received_at", ">=", q.start)
        .where("received_at", "<", q.end)
        .where("type", "<>", "transaction");
      const level = filter(q, "level");
      const release = filter(q, "release");
      const type = filter(q, "event.type");
      if (level !== null) query = query.where("level", "=", level);
      if (release !== null) query = query.where("release", "=", release);
      if (type !== null) query = query.where("type", "=", type);
      if (q.environment !== null) query = query.where("environment", "=", q.environment);
      return Number((await query.executeTakeFirstOrThrow()).n);
    }
    case "users": {
      const r = await db
        .selectFrom("issue_users as u")
        .innerJoin("issues as i", "i.id", "u.issue_id")
        .select((eb) => eb.fn.count("u.user_key").distinct().as("n"))
        .where("i.project_id", "in", projectIds)
        .where("u.last_seen", ">=", q.start)
        .where("u.last_seen", "<", q.end)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    }
    case "crash_free_sessions": {
      let query = db
        .selectFrom("release_session_counts")
        .select((eb) => [eb.fn.sum<number | string | null>("started").as("started"), eb.fn.sum<number | string | null>("crashed").as("crashed")])
        .where("project_id", "in", projectIds)
        .where("hour", ">=", hourOf(q.start))
        .where("hour", "<", q.end);
      const release = filter(q, "release");
      if (release !== null) query = query.where("release", "=", release);
      if (q.environment !== null) query = query.where("environment", "=", q.environment);
      const r = await query.executeTakeFirstOrThrow();
      return crashFree(Number(r.started ?? 0), Number(r.crashed ?? 0));
    }
    case "crash_free_users": {
      const users = (crashedOnly: boolean) => {
        let query = db
          .selectFrom("release_session_users")
          .select((eb) => eb.fn.count("distinct_id").distinct().as("n"))
          .where("project_id", "in", projectIds)
          .where("last_seen", ">=", q.start)
          .where("last_seen", "<", q.end);
        const release = filter(q, "release");
        if (release !== null) query = query.where("release", "=", release);
        if (q.environment !== null) query = query.where("environment", "=", q.environment);
        if (crashedOnly) query = query.where("crashed", "=", dbBool(dialect, true));
        return query.executeTakeFirstOrThrow().then((r) => Number(r.n));
      };
      return crashFree(await users(false), await users(true));
    }
    default: {
      const segments = () => {
        let query = db
          .selectFrom("spans")
          .where("project_id", "in", projectIds)
          .where("is_segment", "=", dbBool(dialect, true))
          .where("start_time", ">=", q.start)
          .where("start_time", "<", q.end);
        const transaction = filter(q, "transaction");
        const release = filter(q, "release");
        if (transaction !== null) query = query.where("transaction", "=", transaction);
        if (release !== null) query = query.where("release", "=", release);
        if (q.environment !== null) query = query.where("environment", "=", q.environment);
        return query;
      };
      const kind = q.kind;
      if (kind.kind === "percentile") {
        const n = Number(
          (
            await segments()
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        );
        if (n === 0) return null;
        const rank = kind.quantile * (n - 1);
        const lower = Math.floor(rank);
        const rows = await segments().select("duration_ms").orderBy("duration_ms").limit(2).offset(lower).execute();
        const a = Number(rows[0]!.duration_ms);
        const b = rows[1] !== undefined ? Number(rows[1].duration_ms) : a;
        return a + (b - a) * (rank - lower);
      }
      const r = await segments()
        .select((eb) => [
          eb.fn.countAll().as("n"),
          eb.fn.sum<number | string | null>(eb.case().when("status", "not in", NOT_FAILURES).then(1).else(0).end()).as("failures"),
          eb.fn
            .sum<number | string | null>(
              eb
                .case()
                .when("duration_ms", "<=", kind.kind === "apdex" ? kind.threshold : 0)
                .then(1)
                .else(0)
                .end(),
            )
            .as("satisfied"),
          eb.fn
            .sum<number | string | null>(
              eb
                .case()
                .when("duration_ms", ">", kind.kind === "apdex" ? 4 * kind.threshold : 0)
                .then(1)
                .else(0)
                .end(),
            )
            .as("frustrated"),
        ])
        .executeTakeFirstOrThrow();
      const n = Number(r.n);
      if (n === 0) return null;
      if (kind.kind === "failure_rate") return Number(r.failures ?? 0) / n;
      const satisfied = Number(r.satisfied ?? 0);
      const frustrated = Number(r.frustrated ?? 0);
      return (satisfied + (n - satisfied - frustrated) / 2) / n;
    }
  }
}
