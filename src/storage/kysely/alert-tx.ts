// What the digest reads and writes to evaluate issue alert rules inside its batch's transaction
// (storage/alert-ports.ts AlertTx), for SQLite and PostgreSQL.
import { type Transaction, sql } from "kysely";
import type { AlertIssueFacts, AlertProjectInfo, AlertTx, RuleIssueState } from "../alert-ports";
import type { Dialect } from "../db";
import type { Database } from "../schema";
import { toAlertRule } from "./alert-rules";
import { dbBool, toBool } from "./shared";
import { latestReleaseOf } from "./issues";

/** Rows per statement, well under both dialects' bound-parameter limits. */
const CHUNK = 500;
const chunked = <T>(items: T[]): T[][] => Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK));

export function alertTx(trx: Transaction<Database>, dialect: Dialect): AlertTx {
  return {
    async alertProjects(projectIds) {
      const out = new Map<number, AlertProjectInfo>();
      if (projectIds.length === 0) return out;
      // One row per project: its organization, and a version of its rules that any create, change or delete moves.
      const rows = await trx
        .selectFrom("projects")
        .innerJoin("organizations", "organizations.id", "projects.organization_id")
        .leftJoin("alert_rules", "alert_rules.project_id", "projects.id")
        .select((eb) => [
          "projects.id as id",
          "projects.slug as slug",
          "projects.name as name",
          "projects.platform as platform",
          "organizations.id as orgId",
          "organizations.slug as orgSlug",
          "organizations.name as orgName",
          eb.fn.count("alert_rules.id").as("rules"),
          eb.fn.max("alert_rules.id").as("maxId"),
          eb.fn.max("alert_rules.updated_at").as("maxUpdated"),
          eb.fn.sum(sql<number>`case when alert_rules.status = 'active' then 1 else 0 end`).as("active"),
        ])
        .where("projects.id", "in", projectIds)
        .groupBy(["projects.id", "projects.slug", "projects.name", "projects.platform", "organizations.id", "organizations.slug", "organizations.name"])
        .execute();
      for (const r of rows) {
        out.set(r.id, {
          version: `${Number(r.rules)}:${r.maxId ?? 0}:${r.maxUpdated ?? ""}`,
          organization: { id: r.orgId, slug: r.orgSlug, name: r.orgName },
          project: { id: r.id, slug: r.slug, name: r.name, platform: r.platform },
          activeRules: Number(r.active ?? 0),
        });
      }
      return out;
    },

    async activeAlertRules(projectId) {
      return (await trx.selectFrom("alert_rules").selectAll().where("project_id", "=", projectId).where("status", "=", "active").orderBy("id").execute()).map(
        toAlertRule,
      );
    },

    async alertIssueFacts(issueIds) {
      const out = new Map<number, AlertIssueFacts>();
      for (const part of chunked([...new Set(issueIds)])) {
        const rows = await trx
          .selectFrom("issues")
          .select([
            "id",
            "project_id",
            "short_id",
            "title",
            "culprit",
            "level",
            "status",
            "first_seen",
            "last_seen",
            "times_seen",
            "user_count",
            "assignee_id",
            "assignee_team_id",
          ])
          .where("id", "in", part)
          .execute();
        for (const r of rows) {
          out.set(r.id, {
            id: r.id,
            projectId: r.project_id,
            shortNumber: Number(r.short_id),
            title: r.title,
            culprit: r.culprit,
            level: r.level,
            status: r.status,
            firstSeen: r.first_seen,
            lastSeen: r.last_seen,
            timesSeen: Number(r.times_seen),
            userCount: Number(r.user_count),
            assigneeId: r.assignee_id,
            assigneeTeamId: r.assignee_team_id,
          });
        }
      }
      return out;
    },

    async ruleIssueStates(ruleIds, issueIds) {
      const out = new Map<string, RuleIssueState>();
      if (ruleIds.length === 0) return out;
      for (const part of chunked([...new Set(issueIds)])) {
        const rows = await trx.selectFrom("alert_rule_issues").selectAll().where("rule_id", "in", ruleIds).where("issue_id", "in", part).execute();
        for (const r of rows) out.set(`${r.rule_id}:${r.issue_id}`, { lastFiredAt: r.last_fired_at, firedOnce: toBool(r.fired_once) });
      }
      return out;
    },

    async markRulesFired(rows) {
      for (const part of chunked(rows)) {
        await trx
          .insertInto("alert_rule_issues")
          .values(part.map((r) => ({ rule_id: r.ruleId, issue_id: r.issueId, last_fired_at: r.firedAt, fired_once: dbBool(dialect, r.firedOnce) })))
          .onConflict((oc) =>
            oc.columns(["rule_id", "issue_id"]).doUpdateSet((eb) => ({
              last_fired_at: eb.ref("excluded.last_fired_at"),
              // Once fired "first time only", always so.
              fired_once:
                dialect === "postgres"
                  ? sql<boolean>`alert_rule_issues.fired_once or excluded.fired_once`
                  : sql<number>`max(alert_rule_issues.fired_once, excluded.fired_once)`,
            })),
          )
          .execute();
      }
    },

    latestRelease: (projectId) => latestReleaseOf(trx, projectId),
  };
}
