// Issue alert rules (Sentry's `Rule` model: project, label, environment, data {action_match, filter_match, frequency,
// conditions, filters, actions}, status, created_by) and their memory per issue (Sentry's GroupRuleStatus: when a
// rule last fired for an issue, so `frequency` holds across batches and restarts; plus Faultline's "first time only"
// flag). Organizations get Sentry's "Let members create alerts" (`alerts_member_write`); projects a secret that
// signs their webhooks (Sentry-Hook-Signature), 32 random bytes in hex, made here for every existing project.
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function alertRules(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("alert_rules")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("name", "text", (c) => c.notNull())
        // null: every environment.
        .addColumn("environment", "text")
        // all, any
        .addColumn("action_match", "text", (c) => c.notNull())
        // all, any, none
        .addColumn("filter_match", "text", (c) => c.notNull())
        // Minutes between two notifications of the rule for one issue.
        .addColumn("frequency", "integer", (c) => c.notNull())
        // JSON arrays with Sentry's ids and fields (core/alert-rule-schema.ts).
        .addColumn("conditions", "text", (c) => c.notNull())
        .addColumn("filters", "text", (c) => c.notNull())
        .addColumn("actions", "text", (c) => c.notNull())
        // active, disabled
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("created_by", "text", (c) => c.references("users.id").onDelete("set null"))
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("alert_rules_project_idx").on("alert_rules").columns(["project_id", "id"]).execute();
      await db.schema
        .createTable("alert_rule_issues")
        .addColumn("rule_id", "integer", (c) => c.notNull().references("alert_rules.id").onDelete("cascade"))
        .addColumn("issue_id", "integer", (c) => c.notNull().references("issues.id").onDelete("cascade"))
        // ISO; when the rule last fired for the issue (its actions enqueued).
        .addColumn("last_fired_at", "text", (c) => c.notNull())
        // Whether a "first time only" frequency condition of the rule has fired for the issue: it never fires again.
        .addColumn("fired_once", t.bool, (c) => c.notNull().defaultTo(t.false))
        .addPrimaryKeyConstraint("alert_rule_issues_pk", ["rule_id", "issue_id"])
        .execute();
      // Deleting an issue (retention) cascades here: by issue.
      await db.schema.createIndex("alert_rule_issues_issue_idx").on("alert_rule_issues").column("issue_id").execute();
      await db.schema
        .alterTable("organizations")
        .addColumn("alerts_member_write", t.bool, (c) => c.notNull().defaultTo(t.false))
        .execute();
      await db.schema.alterTable("projects").addColumn("webhook_secret", "text").execute();
      const projects = await (db as Kysely<{ projects: { id: number; webhook_secret: string | null } }>).selectFrom("projects").select("id").execute();
      for (const p of projects) {
        await (db as Kysely<{ projects: { id: number; webhook_secret: string | null } }>)
          .updateTable("projects")
          .set({ webhook_secret: randomBytes(32).toString("hex") })
          .where("id", "=", p.id)
          .execute();
      }
    },
  };
}
