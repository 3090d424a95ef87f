// Issue alert rules and their history (storage/alert-ports.ts AlertRuleStore), for SQLite and PostgreSQL.
import type { Kysely, Selectable } from "kysely";
import type { RuleInput } from "../../core/alert-rule-schema";
import type { AlertRule, AlertRuleStore, NotificationWithAttempts } from "../alert-ports";
import type { AlertRulesTable } from "../alert-schema";
import type { Database } from "../schema";
import { notificationOutbox } from "./notification-outbox";
import { toAttempt, toNotification } from "./notifications";
import { type Ctx, dbBool, nowIso, toBool } from "./shared";

export const toAlertRule = (r: Selectable<AlertRulesTable>): AlertRule => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  environment: r.environment,
  actionMatch: r.action_match as AlertRule["actionMatch"],
  filterMatch: r.filter_match as AlertRule["filterMatch"],
  frequency: Number(r.frequency),
  conditions: JSON.parse(r.conditions) as AlertRule["conditions"],
  filters: JSON.parse(r.filters) as AlertRule["filters"],
  actions: JSON.parse(r.actions) as AlertRule["actions"],
  status: r.status as AlertRule["status"],
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const ruleColumns = (rule: RuleInput) => ({
  name: rule.name,
  environment: rule.environment,
  action_match: rule.actionMatch,
  filter_match: rule.filterMatch,
  frequency: rule.frequency,
  conditions: JSON.stringify(rule.conditions),
  filters: JSON.stringify(rule.filters),
  actions: JSON.stringify(rule.actions),
  status: rule.status,
});

/** Notifications by id, with their attempts (newest first). */
async function withAttempts(db: Kysely<Database>, rows: Selectable<Database["notifications"]>[]): Promise<NotificationWithAttempts[]> {
  const ids = rows.map((r) => r.id);
  const attempts =
    ids.length === 0 ? [] : await db.selectFrom("notification_attempts").selectAll().where("notification_id", "in", ids).orderBy("id", "desc").execute();
  return rows.map((r) => ({
    ...toNotification(r),
    attemptList: attempts.filter((a) => a.notification_id === r.id).map(toAttempt),
  }));
}

export function alertRuleStore({ db, dialect }: Ctx): AlertRuleStore {
  return {
    async listAlertRules(projectId) {
      return (await db.selectFrom("alert_rules").selectAll().where("project_id", "=", projectId).orderBy("id").execute()).map(toAlertRule);
    },
    async getAlertRule(projectId, ruleId) {
      const r = await db.selectFrom("alert_rules").selectAll().where("project_id", "=", projectId).where("id", "=", ruleId).executeTakeFirst();
      return r ? toAlertRule(r) : null;
    },
    async countAlertRules(projectId) {
      const r = await db
        .selectFrom("alert_rules")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("project_id", "=", projectId)
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async createAlertRule(rule) {
      const now = nowIso();
      const r = await db
        .insertInto("alert_rules")
        .values({ project_id: rule.projectId, created_by: rule.createdBy, created_at: now, updated_at: now, ...ruleColumns(rule) })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toAlertRule(r);
    },
    async updateAlertRule(projectId, ruleId, rule) {
      // The digest's cache compares the newest updated_at: each change moves it forward, even within a millisecond.
      const prev = await db.selectFrom("alert_rules").select("updated_at").where("project_id", "=", projectId).where("id", "=", ruleId).executeTakeFirst();
      if (!prev) return null;
      const next = new Date(Math.max(Date.now(), Date.parse(prev.updated_at) + 1)).toISOString();
      const r = await db
        .updateTable("alert_rules")
        .set({ ...ruleColumns(rule), updated_at: next })
        .where("project_id", "=", projectId)
        .where("id", "=", ruleId)
        .returningAll()
        .executeTakeFirst();
      return r ? toAlertRule(r) : null;
    },
    async deleteAlertRule(projectId, ruleId) {
      const r = await db.deleteFrom("alert_rules").where("project_id", "=", projectId).where("id", "=", ruleId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async alertsMemberWrite(organizationId) {
      const r = await db.selectFrom("organizations").select("alerts_member_write").where("id", "=", organizationId).executeTakeFirst();
      return r ? toBool(r.alerts_member_write) : false;
    },
    async setAlertsMemberWrite(organizationId, on) {
      await db
        .updateTable("organizations")
        .set({ alerts_member_write: dbBool(dialect, on) })
        .where("id", "=", organizationId)
        .execute();
    },
    async ruleHistory(projectId, ruleId, limit) {
      const rows = await db
        .selectFrom("notifications")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("rule_id", "=", ruleId)
        .where("source", "in", ["issue_rule", "test"])
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return withAttempts(db, rows);
    },
    async failingNotifications(projectId, limit) {
      const rows = await db
        .selectFrom("notifications")
        .selectAll()
        .where("project_id", "=", projectId)
        .where((eb) => eb.or([eb("status", "=", "failed"), eb.and([eb("status", "=", "pending"), eb("last_error", "is not", null)])]))
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return withAttempts(db, rows);
    },
    enqueueOutside(rows) {
      return db.transaction().execute((trx) => notificationOutbox(trx).enqueueNotifications(rows));
    },
  };
}
