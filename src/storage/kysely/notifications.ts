// The senders' side of the notification outbox (storage/notification-ports.ts NotificationStore): claims, attempts,
// outcomes, and the reads a sender needs (webhook secrets, recipients, the allowed hosts).
import { type Kysely, type Selectable, sql } from "kysely";
import type { Dialect } from "../db";
import type {
  NewNotificationAttempt,
  Notification,
  NotificationAction,
  NotificationAttempt,
  NotificationOutcome,
  NotificationPayload,
  NotificationRecipient,
  NotificationSource,
  NotificationStatus,
  NotificationStore,
} from "../notification-ports";
import type { NotificationAttemptsTable, NotificationsTable } from "../notification-schema";
import type { SenderStore } from "../notification-settings-ports";
import { feedbackStore } from "./feedback";
import { emailRecipients, meetsTwoFactor } from "./notification-recipients";
import type { Database } from "../schema";
import { notificationOutbox } from "./notification-outbox";
import { dbBool, nowIso, toBool } from "./shared";

/** The instance setting (instance_settings.key) of hosts allowed despite private addresses. */
export const ALLOWED_HOSTS_SETTING = "notification_allowed_hosts";

export const toAttempt = (r: Selectable<NotificationAttemptsTable>): NotificationAttempt => ({
  id: Number(r.id),
  notificationId: Number(r.notification_id),
  attemptedAt: r.attempted_at,
  durationMs: Number(r.duration_ms),
  target: r.target,
  statusCode: r.status_code === null ? null : Number(r.status_code),
  ok: toBool(r.ok),
  error: r.error,
  responseExcerpt: r.response_excerpt,
});

export function toNotification(r: Selectable<NotificationsTable>): Notification {
  return {
    id: Number(r.id),
    organizationId: Number(r.organization_id),
    projectId: r.project_id === null ? null : Number(r.project_id),
    source: r.source as NotificationSource,
    ruleId: r.rule_id === null ? null : Number(r.rule_id),
    issueId: r.issue_id === null ? null : Number(r.issue_id),
    action: JSON.parse(r.action) as NotificationAction,
    payload: JSON.parse(r.payload) as NotificationPayload,
    idempotencyKey: r.idempotency_key,
    createdAt: r.created_at,
    status: r.status as NotificationStatus,
    attempts: Number(r.attempts),
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    sentAt: r.sent_at,
  };
}

/** A missing column: projects.webhook_secret before the alert rules' migration (0021) has run. */
const isMissingColumn = (err: unknown) => (err as { code?: string }).code === "42703" || /no such column/i.test(String((err as Error)?.message));

export function notificationStore({ db, dialect }: { db: Kysely<Database>; dialect: Dialect }): NotificationStore {
  const insertAttempt = (trx: Kysely<Database>, notificationId: number, a: NewNotificationAttempt) =>
    trx
      .insertInto("notification_attempts")
      .values({
        notification_id: notificationId,
        attempted_at: a.attemptedAt,
        duration_ms: Math.max(0, Math.round(a.durationMs)),
        target: a.target,
        status_code: a.statusCode,
        ok: dbBool(dialect, a.ok),
        error: a.error,
        response_excerpt: a.responseExcerpt,
      })
      .execute();

  const outcomeColumns = (o: NotificationOutcome) =>
    o.status === "sent"
      ? { status: "sent", sent_at: o.sentAt, last_error: null }
      : o.status === "pending"
        ? { status: "pending", next_attempt_at: o.nextAttemptAt, last_error: o.error }
        : { status: "failed", last_error: o.error };

  const recipients = (orgId: number) =>
    db
      .selectFrom("members")
      .innerJoin("users", "users.id", "members.user_id")
      .innerJoin("organizations", "organizations.id", "members.organization_id")
      .select(["users.id as userId", "users.email as email", "users.name as name"])
      .where("members.organization_id", "=", orgId)
      .where(meetsTwoFactor);

  const toRecipients = (rows: { userId: string; email: string; name: string }[]): NotificationRecipient[] =>
    rows.map((r) => ({ userId: r.userId, email: r.email, name: r.name }));

  return {
    async claimDueNotifications(owner, now, claimUntil, limit) {
      const due = (q: Kysely<Database>) =>
        q
          .selectFrom("notifications")
          .where("status", "=", "pending")
          .where("next_attempt_at", "<=", now)
          .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
          .orderBy("next_attempt_at")
          .orderBy("id")
          .limit(limit);
      if (dialect === "postgres") {
        const rows = await db.transaction().execute(async (trx) => {
          const locked = await due(trx).select("id").forUpdate().skipLocked().execute();
          if (locked.length === 0) return [];
          return trx
            .updateTable("notifications")
            .set({ claimed_by: owner, claimed_until: claimUntil })
            .where(
              "id",
              "in",
              locked.map((r) => r.id),
            )
            .returningAll()
            .execute();
        });
        return rows.map(toNotification).sort((a, b) => (a.nextAttemptAt < b.nextAttemptAt ? -1 : a.nextAttemptAt > b.nextAttemptAt ? 1 : a.id - b.id));
      }
      // SQLite: a read first, which never waits (WAL): the server's sender polls on the intake's thread, and an UPDATE
      // would wait there for the digest's write lock even with nothing due. Then one statement takes the write lock,
      // so two senders never claim the same row.
      if (!(await due(db).select("id").executeTakeFirst())) return [];
      const rows = await db
        .updateTable("notifications")
        .set({ claimed_by: owner, claimed_until: claimUntil })
        .where("id", "in", due(db).select("id"))
        .returningAll()
        .execute();
      return rows.map(toNotification).sort((a, b) => (a.nextAttemptAt < b.nextAttemptAt ? -1 : a.nextAttemptAt > b.nextAttemptAt ? 1 : a.id - b.id));
    },

    async finishNotification(id, owner, attempt, outcome) {
      return db.transaction().execute(async (trx) => {
        if (attempt) await insertAttempt(trx, id, attempt);
        const r = await trx
          .updateTable("notifications")
          .set((eb) => ({ ...outcomeColumns(outcome), attempts: attempt ? eb("attempts", "+", 1) : eb.ref("attempts"), claimed_by: null, claimed_until: null }))
          .where("id", "=", id)
          .where("claimed_by", "=", owner)
          .where("status", "=", "pending")
          .executeTakeFirst();
        return Number(r.numUpdatedRows) > 0;
      });
    },

    async expandNotification(id, owner, children, attempt) {
      return db.transaction().execute(async (trx) => {
        const added = await notificationOutbox(trx).enqueueNotifications(children);
        await insertAttempt(trx, id, attempt);
        await trx
          .updateTable("notifications")
          .set((eb) => ({
            status: "sent",
            sent_at: attempt.attemptedAt,
            last_error: null,
            attempts: eb("attempts", "+", 1),
            claimed_by: null,
            claimed_until: null,
          }))
          .where("id", "=", id)
          .where("claimed_by", "=", owner)
          .where("status", "=", "pending")
          .execute();
        return added;
      });
    },

    async getNotification(id) {
      const r = await db.selectFrom("notifications").selectAll().where("id", "=", id).executeTakeFirst();
      return r ? toNotification(r) : null;
    },

    async listNotificationAttempts(notificationId) {
      const rows = await db
        .selectFrom("notification_attempts")
        .selectAll()
        .where("notification_id", "=", notificationId)
        .orderBy("attempted_at")
        .orderBy("id")
        .execute();
      return rows.map(toAttempt);
    },

    async getProjectWebhookSecret(projectId) {
      try {
        const r = await sql<{ webhook_secret: string | null }>`select webhook_secret from projects where id = ${projectId}`.execute(db);
        return r.rows[0]?.webhook_secret ?? null;
      } catch (err) {
        if (isMissingColumn(err)) return null;
        throw err;
      }
    },

    async listOrganizationRecipients(organizationId, userIds) {
      if (userIds && userIds.length === 0) return [];
      let q = recipients(organizationId);
      if (userIds) q = q.where("users.id", "in", userIds);
      return toRecipients(await q.orderBy("users.email").execute());
    },

    async listTeamRecipients(organizationId, teamId) {
      const rows = await recipients(organizationId)
        .innerJoin("team_members", "team_members.member_id", "members.id")
        .innerJoin("teams", "teams.id", "team_members.team_id")
        .where("teams.id", "=", teamId)
        .where("teams.organization_id", "=", organizationId)
        .orderBy("users.email")
        .execute();
      return toRecipients(rows);
    },

    async getProjectTeam(organizationId, projectId) {
      const r = await db.selectFrom("projects").select("team_id").where("id", "=", projectId).where("organization_id", "=", organizationId).executeTakeFirst();
      return r ? { teamId: r.team_id === null ? null : Number(r.team_id) } : null;
    },

    async getIssueAssignee(organizationId, issueId) {
      const r = await db
        .selectFrom("issues")
        .innerJoin("projects", "projects.id", "issues.project_id")
        .select(["issues.assignee_id", "issues.assignee_team_id"])
        .where("issues.id", "=", issueId)
        .where("projects.organization_id", "=", organizationId)
        .executeTakeFirst();
      return r ? { userId: r.assignee_id, teamId: r.assignee_team_id === null ? null : Number(r.assignee_team_id) } : null;
    },

    async getAllowedHostsSetting() {
      const r = await db.selectFrom("instance_settings").select("value").where("key", "=", ALLOWED_HOSTS_SETTING).executeTakeFirst();
      return r?.value ?? "";
    },

    async setAllowedHostsSetting(text) {
      await db
        .insertInto("instance_settings")
        .values({ key: ALLOWED_HOSTS_SETTING, value: text, created_at: nowIso() })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: text }))
        .execute();
    },
  };
}

/** What the sender reads and writes: the outbox, and who of an e-mail action's people want its mail, in which language. */
export function senderStore(ctx: { db: Kysely<Database>; dialect: Dialect }): SenderStore {
  return {
    ...notificationStore(ctx),
    recipientPreferences: (userIds, projectId) => emailRecipients(ctx.db, userIds, projectId),
    getFeedback: feedbackStore(ctx).getFeedback,
  };
}
