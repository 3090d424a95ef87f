// Personal notification settings (storage/notification-settings-ports.ts) on SQLite and PostgreSQL: a setting
// without a row is on; writes are upserts on the person's key.
import { sql } from "kysely";
import { formatShortId } from "../../core/short-id";
import type { NotificationSettingsStore, ParticipationReason, SummaryCandidate } from "../notification-settings-ports";
import { emailRecipients, meetsTwoFactor, toLocale, workflowRecipients } from "./notification-recipients";
import { notificationOutbox } from "./notification-outbox";
import { type Ctx, dbBool, toBool } from "./shared";

/** Keys per IN list, well under both dialects' bound-parameter limits. */
const KEYS_PER_STATEMENT = 500;

const REASONS = new Set<ParticipationReason>(["assigned", "comment", "subscribed"]);

export function notificationSettingsStore({ db, dialect }: Ctx): NotificationSettingsStore {
  return {
    async getUserNotificationSettings(userId) {
      const r = await db.selectFrom("user_notification_settings").selectAll().where("user_id", "=", userId).executeTakeFirst();
      return r
        ? { locale: r.locale === null ? null : toLocale(r.locale), timeZone: r.time_zone, workflow: toBool(r.workflow) }
        : { locale: null, timeZone: null, workflow: true };
    },
    async setUserNotificationSettings(userId, s, at) {
      const row = { locale: s.locale, time_zone: s.timeZone, workflow: dbBool(dialect, s.workflow), updated_at: at };
      await db
        .insertInto("user_notification_settings")
        .values({ user_id: userId, ...row })
        .onConflict((oc) => oc.column("user_id").doUpdateSet(row))
        .execute();
    },
    async projectEmailSettings(userId, projectIds) {
      const out = new Map<number, boolean>(projectIds.map((id) => [id, true]));
      if (projectIds.length === 0) return out;
      const rows = await db
        .selectFrom("project_notification_settings")
        .select(["project_id", "email"])
        .where("user_id", "=", userId)
        .where("project_id", "in", projectIds)
        .execute();
      for (const r of rows) out.set(r.project_id, toBool(r.email));
      return out;
    },
    async setProjectEmail(userId, projectId, on) {
      await db
        .insertInto("project_notification_settings")
        .values({ user_id: userId, project_id: projectId, email: dbBool(dialect, on) })
        .onConflict((oc) => oc.columns(["user_id", "project_id"]).doUpdateSet({ email: dbBool(dialect, on) }))
        .execute();
    },
    async weeklySummarySettings(userId, organizationIds) {
      const out = new Map<number, boolean>(organizationIds.map((id) => [id, true]));
      if (organizationIds.length === 0) return out;
      const rows = await db
        .selectFrom("organization_notification_settings")
        .select(["organization_id", "weekly_summary"])
        .where("user_id", "=", userId)
        .where("organization_id", "in", organizationIds)
        .execute();
      for (const r of rows) out.set(r.organization_id, toBool(r.weekly_summary));
      return out;
    },
    async setWeeklySummary(userId, organizationId, on) {
      await db
        .insertInto("organization_notification_settings")
        .values({ user_id: userId, organization_id: organizationId, weekly_summary: dbBool(dialect, on) })
        .onConflict((oc) => oc.columns(["user_id", "organization_id"]).doUpdateSet({ weekly_summary: dbBool(dialect, on) }))
        .execute();
    },
    async getIssueSubscription(userId, issueId) {
      const r = await db
        .selectFrom("issue_subscriptions")
        .select(["is_active", "reason"])
        .where("user_id", "=", userId)
        .where("issue_id", "=", issueId)
        .executeTakeFirst();
      if (!r) return null;
      return { isActive: toBool(r.is_active), reason: REASONS.has(r.reason as ParticipationReason) ? (r.reason as ParticipationReason) : "subscribed" };
    },
    async setIssueSubscription(userId, issueId, subscribed, at) {
      // An explicit choice keeps the reason the person first took part for; a first row is an explicit subscription.
      await db
        .insertInto("issue_subscriptions")
        .values({ user_id: userId, issue_id: issueId, is_active: dbBool(dialect, subscribed), reason: "subscribed", created_at: at })
        .onConflict((oc) => oc.columns(["user_id", "issue_id"]).doUpdateSet({ is_active: dbBool(dialect, subscribed) }))
        .execute();
    },
    async issueWorkflowRecipients(issueId) {
      const issue = await db
        .selectFrom("issues")
        .innerJoin("projects", "projects.id", "issues.project_id")
        .select("projects.organization_id")
        .where("issues.id", "=", issueId)
        .executeTakeFirst();
      return issue ? workflowRecipients(db, dialect, issue.organization_id, issueId) : [];
    },
    recipientPreferences: (userIds, projectId) => emailRecipients(db, userIds, projectId),
    async weeklySummaryCandidates() {
      const rows = await db
        .selectFrom("members")
        .innerJoin("users", "users.id", "members.user_id")
        .innerJoin("organizations", "organizations.id", "members.organization_id")
        .leftJoin("user_notification_settings as s", "s.user_id", "users.id")
        .leftJoin("organization_notification_settings as o", (j) =>
          j.onRef("o.user_id", "=", "members.user_id").onRef("o.organization_id", "=", "members.organization_id"),
        )
        .select([
          "users.id as user_id",
          "users.email",
          "s.locale",
          "s.time_zone",
          "o.weekly_summary",
          "organizations.id as org_id",
          "organizations.slug",
          "organizations.name",
        ])
        .where(meetsTwoFactor)
        .orderBy("organizations.id")
        .orderBy("users.id")
        .execute();
      const out: SummaryCandidate[] = [];
      for (const r of rows) {
        if (r.weekly_summary !== null && !toBool(r.weekly_summary)) continue;
        out.push({
          userId: r.user_id,
          email: r.email,
          locale: toLocale(r.locale),
          timeZone: r.time_zone,
          organization: { id: r.org_id, slug: r.slug, name: r.name },
        });
      }
      return out;
    },
    async existingNotificationKeys(keys) {
      const out = new Set<string>();
      for (let i = 0; i < keys.length; i += KEYS_PER_STATEMENT) {
        const rows = await db
          .selectFrom("notifications")
          .select("idempotency_key")
          .where("idempotency_key", "in", keys.slice(i, i + KEYS_PER_STATEMENT))
          .execute();
        for (const r of rows) out.add(r.idempotency_key);
      }
      return out;
    },
    enqueueNotificationRows(rows) {
      return db.transaction().execute((trx) => notificationOutbox(trx).enqueueNotifications(rows));
    },
    async weeklySummaryFigures(organizationId, from, to, top) {
      const projects = db.selectFrom("projects").select("id").where("organization_id", "=", organizationId);
      // Hours are written "2026-11-23T10:00:00Z" (core/hours.ts); the bounds are full hours in the same form.
      const hourFrom = from.replace(".000Z", "Z");
      const hourTo = to.replace(".000Z", "Z");
      const newIssues = await db
        .selectFrom("issues")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "in", projects)
        .where("first_seen", ">=", from)
        .where("first_seen", "<", to)
        .executeTakeFirstOrThrow();
      const counted = db
        .selectFrom("issue_counts")
        .innerJoin("issues", "issues.id", "issue_counts.issue_id")
        .where("issues.project_id", "in", projects)
        .where("issue_counts.hour", ">=", hourFrom)
        .where("issue_counts.hour", "<", hourTo);
      const events = await counted.select(sql<number | string | null>`sum(issue_counts.count)`.as("n")).executeTakeFirstOrThrow();
      const topRows = await counted
        .innerJoin("projects", "projects.id", "issues.project_id")
        .select(["issues.id", "issues.short_id", "issues.title", "projects.slug", sql<number | string>`sum(issue_counts.count)`.as("n")])
        .groupBy(["issues.id", "issues.short_id", "issues.title", "projects.slug"])
        .orderBy("n", "desc")
        .orderBy("issues.id")
        .limit(top)
        .execute();
      const sessions = await db
        .selectFrom("release_session_counts")
        .select([sql<number | string | null>`sum(started)`.as("started"), sql<number | string | null>`sum(crashed)`.as("crashed")])
        .where("project_id", "in", projects)
        .where("hour", ">=", hourFrom)
        .where("hour", "<", hourTo)
        .executeTakeFirstOrThrow();
      return {
        newIssues: Number(newIssues.n),
        events: Number(events.n ?? 0),
        topIssues: topRows.map((r) => ({ id: r.id, shortId: formatShortId(r.slug, r.short_id), title: r.title, count: Number(r.n) })),
        sessions: Number(sessions.started ?? 0),
        crashedSessions: Number(sessions.crashed ?? 0),
      };
    },
  };
}
