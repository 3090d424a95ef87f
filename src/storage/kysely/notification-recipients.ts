// Who of a set of people may be sent something for an organization, with their address and language: members of
// the organization only (someone who left hears nothing more), read in the caller's transaction or outside one.
import { type Kysely, sql, type SqlBool } from "kysely";
import type { Dialect } from "../db";
import { NOTIFICATION_LOCALES, type NotificationLocale, type Recipient } from "../notification-settings-ports";
import type { Database } from "../schema";
import { toBool } from "./shared";

/** Ids per IN list, well under both dialects' bound-parameter limits. */
const IDS_PER_STATEMENT = 500;

export const toLocale = (v: string | null): NotificationLocale =>
  (NOTIFICATION_LOCALES as readonly string[]).includes(v ?? "") ? (v as NotificationLocale) : "en";

type Candidate = Recipient & { workflow: boolean };

/**
 * A member who may be sent the organization's data: its two-factor requirement met. Without two-factor in an
 * organization that requires it, a member is refused everything in it but the enrolment page (core/access.ts), and its
 * alerts, notices and summaries carry what that refusal keeps. For a query joining `organizations` and `users`.
 */
export const meetsTwoFactor = sql<SqlBool>`(not ${sql.ref("organizations.require_two_factor")} or ${sql.ref("users.two_factor_enabled")})`;

/** The members among `userIds` of the organization, with their workflow setting, ordered by e-mail. */
export async function membersAmong(db: Kysely<Database>, organizationId: number, userIds: string[]): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const ids = [...new Set(userIds)];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    const rows = await db
      .selectFrom("members")
      .innerJoin("users", "users.id", "members.user_id")
      .innerJoin("organizations", "organizations.id", "members.organization_id")
      .leftJoin("user_notification_settings as s", "s.user_id", "users.id")
      .select(["users.id", "users.name", "users.email", "s.locale", "s.workflow"])
      .where("members.organization_id", "=", organizationId)
      .where(meetsTwoFactor)
      .where("users.id", "in", ids.slice(i, i + IDS_PER_STATEMENT))
      .execute();
    for (const r of rows)
      out.push({ userId: r.id, name: r.name, email: r.email, locale: toLocale(r.locale), workflow: r.workflow === null ? true : toBool(r.workflow) });
  }
  return out.sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}

const strip = ({ userId, name, email, locale }: Candidate): Recipient => ({ userId, name, email, locale });

/** Those of `userIds` in the project's organization who have not turned its e-mail alerts off. */
export async function emailRecipients(db: Kysely<Database>, userIds: string[], projectId: number): Promise<Recipient[]> {
  const project = await db.selectFrom("projects").select("organization_id").where("id", "=", projectId).executeTakeFirst();
  if (!project || userIds.length === 0) return [];
  const members = await membersAmong(db, project.organization_id, userIds);
  const off = new Set<string>();
  for (let i = 0; i < members.length; i += IDS_PER_STATEMENT) {
    const rows = await db
      .selectFrom("project_notification_settings")
      .select(["user_id", "email"])
      .where("project_id", "=", projectId)
      .where(
        "user_id",
        "in",
        members.slice(i, i + IDS_PER_STATEMENT).map((m) => m.userId),
      )
      .execute();
    for (const r of rows) if (!toBool(r.email)) off.add(r.user_id);
  }
  return members.filter((m) => !off.has(m.userId)).map(strip);
}

/** The user ids of a team's members. */
export async function teamUserIds(db: Kysely<Database>, teamId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("team_members")
    .innerJoin("members", "members.id", "team_members.member_id")
    .select("members.user_id")
    .where("team_members.team_id", "=", teamId)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Subscribers of the issue: active ones, or (with `inactive`) those who unsubscribed. */
export async function subscriberIds(db: Kysely<Database>, dialect: Dialect, issueId: number, active: boolean): Promise<string[]> {
  const rows = await db
    .selectFrom("issue_subscriptions")
    .select("user_id")
    .where("issue_id", "=", issueId)
    .where("is_active", "=", dialect === "sqlite" ? (active ? 1 : 0) : active)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Active subscribers of the issue who are members of `organizationId` and want workflow notices. */
export async function workflowRecipients(db: Kysely<Database>, dialect: Dialect, organizationId: number, issueId: number): Promise<Recipient[]> {
  return (await membersAmong(db, organizationId, await subscriberIds(db, dialect, issueId, true))).filter((m) => m.workflow).map(strip);
}

export { strip as toRecipient };
