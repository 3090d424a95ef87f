// Workflow notices (storage/notification-settings-ports.ts WorkflowTx) in the caller's transaction: the person who
// comes to take part is recorded first, then the recipients are worked out from the issue as it is now (its
// assignee, its active subscribers), less the one who made the change, those who unsubscribed, those who turned
// workflow notices off and those no longer in the organization; one outbox row each, keyed by the change and person.
import type { Kysely } from "kysely";
import { PERSONAL_NOTIFICATION_LIMITS } from "../../config/limits";
import { issueLink } from "../../core/links";
import { formatShortId } from "../../core/short-id";
import type { Dialect } from "../db";
import { type IssueNotificationPayload, type NewNotification, RECIPIENT_ACTION } from "../notification-ports";
import type { WorkflowNotice, WorkflowTx } from "../notification-settings-ports";
import type { Database } from "../schema";
import { membersAmong, subscriberIds, teamUserIds, toRecipient } from "./notification-recipients";
import { notificationOutbox } from "./notification-outbox";
import { dbBool } from "./shared";

async function issueContext(db: Kysely<Database>, issueId: number) {
  return db
    .selectFrom("issues")
    .innerJoin("projects", "projects.id", "issues.project_id")
    .innerJoin("organizations", "organizations.id", "projects.organization_id")
    .select([
      "issues.id",
      "issues.short_id",
      "issues.title",
      "issues.culprit",
      "issues.level",
      "issues.status",
      "issues.first_seen",
      "issues.last_seen",
      "issues.times_seen",
      "issues.user_count",
      "issues.assignee_id",
      "issues.assignee_team_id",
      "projects.id as project_id",
      "projects.slug as project_slug",
      "projects.name as project_name",
      "projects.platform as project_platform",
      "organizations.id as org_id",
      "organizations.slug as org_slug",
      "organizations.name as org_name",
    ])
    .where("issues.id", "=", issueId)
    .executeTakeFirst();
}

/** Records that someone takes part; an existing row (an earlier reason, or an unsubscribe) stays as it is. */
export async function addParticipant(db: Kysely<Database>, dialect: Dialect, issueId: number, userId: string, reason: string, at: string): Promise<void> {
  await db
    .insertInto("issue_subscriptions")
    .values({ user_id: userId, issue_id: issueId, is_active: dbBool(dialect, true), reason, created_at: at })
    .onConflict((oc) => oc.columns(["user_id", "issue_id"]).doNothing())
    .execute();
}

async function noticeRows(db: Kysely<Database>, dialect: Dialect, n: WorkflowNotice): Promise<NewNotification[]> {
  const issue = await issueContext(db, n.issueId);
  if (!issue) return [];
  if (n.participant) await addParticipant(db, dialect, n.issueId, n.participant.userId, n.participant.reason, n.createdAt);
  let candidates: string[];
  if (n.to === "assignee") {
    const assigned = issue.assignee_id ? [issue.assignee_id] : issue.assignee_team_id !== null ? await teamUserIds(db, issue.assignee_team_id) : [];
    const unsubscribed = new Set(await subscriberIds(db, dialect, n.issueId, false));
    candidates = assigned.filter((id) => !unsubscribed.has(id));
  } else {
    candidates = await subscriberIds(db, dialect, n.issueId, true);
  }
  candidates = candidates.filter((id) => id !== n.actorUserId);
  const recipients = (await membersAmong(db, issue.org_id, candidates)).filter((m) => m.workflow).map(toRecipient);
  if (recipients.length === 0) return [];
  const actor = n.actorUserId ? await db.selectFrom("users").select(["name", "email"]).where("id", "=", n.actorUserId).executeTakeFirst() : undefined;
  const organization = { id: issue.org_id, slug: issue.org_slug, name: issue.org_name };
  const project = { id: issue.project_id, slug: issue.project_slug, name: issue.project_name, platform: issue.project_platform };
  return recipients.map((r) => {
    const payload: IssueNotificationPayload = {
      kind: "issue",
      trigger: n.trigger,
      ruleName: null,
      organization,
      project,
      issue: {
        id: issue.id,
        shortId: formatShortId(issue.project_slug, issue.short_id),
        title: issue.title,
        culprit: issue.culprit,
        level: issue.level,
        status: issue.status,
        firstSeen: issue.first_seen,
        lastSeen: issue.last_seen,
        count: Number(issue.times_seen),
        userCount: Number(issue.user_count),
      },
      event: n.event ?? null,
      issueUrl: issueLink(n.linkBase, r.locale, issue.org_slug, issue.id),
      actor: actor ? { name: actor.name, email: actor.email } : null,
      text: n.text ? n.text.slice(0, PERSONAL_NOTIFICATION_LIMITS.noticeTextChars) : null,
    };
    return {
      organizationId: issue.org_id,
      projectId: issue.project_id,
      source: "workflow",
      ruleId: null,
      issueId: issue.id,
      action: { id: RECIPIENT_ACTION, userId: r.userId, email: r.email, locale: r.locale },
      payload,
      idempotencyKey: `workflow:${n.trigger}:${n.key}:${r.userId}`,
      createdAt: n.createdAt,
    };
  });
}

export function workflowTx(db: Kysely<Database>, dialect: Dialect): WorkflowTx {
  return {
    async enqueueWorkflowNotices(notices) {
      const rows: NewNotification[] = [];
      for (const n of notices) rows.push(...(await noticeRows(db, dialect, n)));
      return rows.length === 0 ? 0 : notificationOutbox(db).enqueueNotifications(rows);
    },
  };
}
