// Cron monitors' store (storage/monitor-ports.ts MonitorStore): the scheduler's due deadlines and timeouts, and the
// core's reads and edits. The transaction's operations are monitor-tx.ts.
import type { MonitorStore, MonitorWithEnvironments } from "../monitor-ports";
import { dbBool, type Ctx } from "./shared";
import { MONITOR_COLUMNS, toCheckIn, toEnvironment, toMonitor } from "./monitor-rows";
import { configColumns, insertMonitor, monitorTx } from "./monitor-tx";

const monitorCols = MONITOR_COLUMNS.map((c) => `monitors.${c}` as const);

export function monitorStore({ db, dialect }: Ctx): MonitorStore {
  const withEnvironments = async (rows: ReturnType<typeof toMonitor>[]): Promise<MonitorWithEnvironments[]> => {
    if (rows.length === 0) return [];
    const envs = await db
      .selectFrom("monitor_environments")
      .selectAll()
      .where(
        "monitor_id",
        "in",
        rows.map((m) => m.id),
      )
      .orderBy("environment")
      .execute();
    return rows.map((m) => ({ ...m, environments: envs.filter((e) => e.monitor_id === m.id).map(toEnvironment) }));
  };
  const byId = async (id: number) => {
    const r = await db.selectFrom("monitors").selectAll().where("id", "=", id).executeTakeFirst();
    return r ? toMonitor(r) : null;
  };
  return {
    monitorTransaction(work) {
      return db.transaction().execute((trx) => work(monitorTx(trx, dialect)));
    },
    async dueDeadlines(now, limit) {
      const rows = await db
        .selectFrom("monitor_environments as e")
        .innerJoin("monitors", "monitors.id", "e.monitor_id")
        .select(monitorCols)
        .select([
          "e.id as e_id",
          "e.monitor_id as e_monitor_id",
          "e.environment as e_environment",
          "e.status as e_status",
          "e.last_checkin as e_last_checkin",
          "e.next_checkin as e_next_checkin",
          "e.next_checkin_latest as e_next_checkin_latest",
          "e.in_incident as e_in_incident",
          "e.failures as e_failures",
          "e.successes as e_successes",
        ])
        .where("e.next_checkin_latest", "<=", now)
        .where("monitors.status", "=", "active")
        .orderBy("e.next_checkin_latest")
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        monitor: toMonitor(r),
        environment: toEnvironment({
          id: r.e_id,
          monitor_id: r.e_monitor_id,
          environment: r.e_environment,
          status: r.e_status,
          last_checkin: r.e_last_checkin,
          next_checkin: r.e_next_checkin,
          next_checkin_latest: r.e_next_checkin_latest,
          in_incident: r.e_in_incident,
          failures: r.e_failures,
          successes: r.e_successes,
        }),
      }));
    },
    async dueTimeouts(now, limit) {
      const checkIns = await db
        .selectFrom("monitor_checkins")
        .selectAll()
        .where("timeout_at", "<=", now)
        .where("status", "=", "in_progress")
        .orderBy("timeout_at")
        .limit(limit)
        .execute();
      const out = [];
      for (const c of checkIns) {
        const monitor = await byId(c.monitor_id);
        const env = await db.selectFrom("monitor_environments").selectAll().where("id", "=", c.monitor_environment_id).executeTakeFirst();
        if (monitor && env && monitor.status === "active") out.push({ monitor, environment: toEnvironment(env), checkIn: toCheckIn(c) });
      }
      return out;
    },
    async listMonitors(organizationId, projectIds) {
      if (projectIds && projectIds.length === 0) return [];
      let q = db.selectFrom("monitors").selectAll().where("organization_id", "=", organizationId);
      if (projectIds) q = q.where("project_id", "in", projectIds);
      const rows = await q.orderBy("name").orderBy("id").execute();
      return withEnvironments(rows.map(toMonitor));
    },
    async monitorInOrganization(organizationId, slug) {
      const r = await db.selectFrom("monitors").selectAll().where("organization_id", "=", organizationId).where("slug", "=", slug).executeTakeFirst();
      return r ? (await withEnvironments([toMonitor(r)]))[0]! : null;
    },
    async createMonitor(m, now) {
      const created = await insertMonitor(
        db,
        m.projectId,
        m.slug,
        m.name,
        m,
        { isMuted: dbBool(dialect, m.isMuted ?? false), status: m.status ?? "active" },
        now,
      );
      if (!created) return null;
      const r = await db.selectFrom("monitors").selectAll().where("project_id", "=", m.projectId).where("slug", "=", m.slug).executeTakeFirst();
      return r ? toMonitor(r) : null;
    },
    async updateMonitor(id, patch) {
      const current = await byId(id);
      if (!current) return null;
      if (patch.slug !== undefined && patch.slug !== current.slug) {
        const taken = await db
          .selectFrom("monitors")
          .select("id")
          .where("organization_id", "=", current.organizationId)
          .where("slug", "=", patch.slug)
          .executeTakeFirst();
        if (taken) return null;
      }
      const set = {
        ...configColumns(patch),
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.slug !== undefined && { slug: patch.slug }),
        ...(patch.status !== undefined && { status: patch.status }),
        ...(patch.isMuted !== undefined && { is_muted: dbBool(dialect, patch.isMuted) }),
      };
      if (Object.keys(set).length > 0) await db.updateTable("monitors").set(set).where("id", "=", id).execute();
      return byId(id);
    },
    async deleteMonitor(id) {
      const r = await db.deleteFrom("monitors").where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async recentCheckIns(environmentIds, perEnvironment) {
      const out = [];
      for (const id of environmentIds) {
        const rows = await db
          .selectFrom("monitor_checkins")
          .selectAll()
          .where("monitor_environment_id", "=", id)
          .orderBy("id", "desc")
          .limit(perEnvironment)
          .execute();
        out.push(...rows.map(toCheckIn));
      }
      return out;
    },
    async pruneCheckInsBefore(cutoff, limit) {
      const ids = (await db.selectFrom("monitor_checkins").select(["id", "date_added"]).orderBy("id").limit(limit).execute())
        .filter((r) => r.date_added < cutoff)
        .map((r) => r.id);
      if (ids.length === 0) return 0;
      const r = await db.deleteFrom("monitor_checkins").where("id", "in", ids).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async activePublicKey(projectId) {
      const r = await db
        .selectFrom("project_keys")
        .select("public_key")
        .where("project_id", "=", projectId)
        .where("is_active", "=", dbBool(dialect, true) as never)
        .orderBy("id")
        .limit(1)
        .executeTakeFirst();
      return r?.public_key ?? null;
    },
  };
}
