// Monitor operations inside a transaction (storage/monitor-ports.ts MonitorTx): the digest's batch transaction, or
// one of the scheduler's. Inserts that may race (two digests, two schedulers) are ON CONFLICT DO NOTHING followed by
// a read, so neither dialect aborts the transaction on a duplicate.
import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { MONITOR_LIMITS } from "../../config/limits";
import type { Dialect } from "../db";
import type { MonitorConfig, MonitorTx } from "../monitor-ports";
import type { Database } from "../schema";
import { environmentColumns, toCheckIn, toEnvironment, toMonitor } from "./monitor-rows";

export const configColumns = (c: Partial<MonitorConfig>) => ({
  ...(c.scheduleType !== undefined && { schedule_type: c.scheduleType }),
  ...(c.schedule !== undefined && { schedule: c.schedule }),
  ...(c.intervalUnit !== undefined && { interval_unit: c.intervalUnit }),
  ...(c.timezone !== undefined && { timezone: c.timezone }),
  ...(c.checkinMargin !== undefined && { checkin_margin: c.checkinMargin }),
  ...(c.maxRuntime !== undefined && { max_runtime: c.maxRuntime }),
  ...(c.failureIssueThreshold !== undefined && { failure_issue_threshold: c.failureIssueThreshold }),
  ...(c.recoveryThreshold !== undefined && { recovery_threshold: c.recoveryThreshold }),
});

/** Inserts a monitor unless its organization has the slug or has its most monitors; null then. */
export async function insertMonitor(
  db: Kysely<Database> | Transaction<Database>,
  projectId: number,
  slug: string,
  name: string,
  config: MonitorConfig,
  extra: { isMuted: boolean | number; status: string },
  now: string,
): Promise<boolean> {
  const project = await db.selectFrom("projects").select("organization_id").where("id", "=", projectId).executeTakeFirst();
  if (!project) return false;
  const count = await db
    .selectFrom("monitors")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("organization_id", "=", project.organization_id)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MONITOR_LIMITS.monitorsPerOrganization) return false;
  const r = await db
    .insertInto("monitors")
    .values({
      guid: randomUUID(),
      organization_id: project.organization_id,
      project_id: projectId,
      slug,
      name,
      status: extra.status,
      is_muted: extra.isMuted,
      created_at: now,
      ...configColumns(config),
    } as never)
    .onConflict((oc) => oc.columns(["organization_id", "slug"]).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function monitorTx(trx: Transaction<Database>, dialect: Dialect): MonitorTx {
  const bySlug = async (projectId: number, slug: string) => {
    const r = await trx.selectFrom("monitors").selectAll().where("project_id", "=", projectId).where("slug", "=", slug).executeTakeFirst();
    return r ? toMonitor(r) : null;
  };
  return {
    monitorBySlug: bySlug,
    async upsertMonitor(projectId, slug, config, now) {
      const existing = await bySlug(projectId, slug);
      if (existing) {
        await trx.updateTable("monitors").set(configColumns(config)).where("id", "=", existing.id).execute();
        return { ...existing, ...config };
      }
      await insertMonitor(trx, projectId, slug, slug, config, { isMuted: dialect === "sqlite" ? 0 : false, status: "active" }, now);
      return bySlug(projectId, slug);
    },
    async monitorEnvironment(monitorId, environment) {
      await trx
        .insertInto("monitor_environments")
        .values({ monitor_id: monitorId, environment, status: "active" })
        .onConflict((oc) => oc.columns(["monitor_id", "environment"]).doNothing())
        .execute();
      // On PostgreSQL the row stays locked to the end of the transaction: the digest and the scheduler each change the
      // counters from what they read, so one waits for the other's commit and reads its result (SQLite's write lock
      // already makes them take turns).
      const q = trx.selectFrom("monitor_environments").selectAll().where("monitor_id", "=", monitorId).where("environment", "=", environment);
      const r = await (dialect === "postgres" ? q.forUpdate() : q).executeTakeFirstOrThrow();
      return toEnvironment(r);
    },
    async updateMonitorEnvironment(id, patch) {
      const set = environmentColumns(dialect, patch);
      if (Object.keys(set).length > 0) await trx.updateTable("monitor_environments").set(set).where("id", "=", id).execute();
    },
    async claimMissedDeadline(id, deadline, patch) {
      const r = await trx
        .updateTable("monitor_environments")
        .set(environmentColumns(dialect, patch))
        .where("id", "=", id)
        .where("next_checkin_latest", "=", deadline)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async checkInByGuid(monitorId, guid) {
      const r = await trx.selectFrom("monitor_checkins").selectAll().where("monitor_id", "=", monitorId).where("guid", "=", guid).executeTakeFirst();
      return r ? toCheckIn(r) : null;
    },
    async latestInProgress(environmentId) {
      const r = await trx
        .selectFrom("monitor_checkins")
        .selectAll()
        .where("monitor_environment_id", "=", environmentId)
        .where("status", "=", "in_progress")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      return r ? toCheckIn(r) : null;
    },
    async insertCheckIn(c) {
      const r = await trx
        .insertInto("monitor_checkins")
        .values({
          guid: c.guid,
          monitor_id: c.monitorId,
          monitor_environment_id: c.environmentId,
          project_id: c.projectId,
          status: c.status,
          duration_ms: c.durationMs,
          date_added: c.dateAdded,
          date_updated: c.dateUpdated,
          expected_time: c.expectedTime,
          timeout_at: c.timeoutAt,
        })
        .onConflict((oc) => oc.columns(["monitor_id", "guid"]).doNothing())
        .returningAll()
        .executeTakeFirst();
      return r ? toCheckIn(r) : null;
    },
    async finishCheckIn(id, patch) {
      const r = await trx
        .updateTable("monitor_checkins")
        .set({
          ...(patch.status !== undefined && { status: patch.status }),
          ...(patch.durationMs !== undefined && { duration_ms: patch.durationMs }),
          ...(patch.dateUpdated !== undefined && { date_updated: patch.dateUpdated }),
          ...(patch.timeoutAt !== undefined && { timeout_at: patch.timeoutAt }),
        })
        .where("id", "=", id)
        .where("status", "=", "in_progress")
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}
