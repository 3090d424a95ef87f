// The audit trail (issue 20): the core records every security-relevant change after it succeeded (who, when, from
// which address, what changed: old and new values), per organization, or of the instance for what belongs to no
// organization (sign-in failures and lock-outs, personal tokens, password changes). Organization owners and admins
// read their organization's trail (`org:audit`), superusers the instance's. Event names are Sentry's where Sentry has
// one (its audit log's `event` strings), so GET /api/0/organizations/{org}/audit-logs/ reads as Sentry's.
import { z } from "zod";
import { AUDIT_LIMITS } from "../config/limits";
import type { AuditEntry } from "../storage/audit-ports";
import type { Store } from "../storage/ports";
import { requireOrg } from "./access";
import type { Actor, CoreContext } from "./context";
import { forbidden } from "./errors";
import { parseId, parseInput } from "./schemas";

/** Every event the trail records, with what it is about. */
export const AUDIT_EVENTS = [
  "member.invite",
  "member.accept-invite",
  // Joined by single sign-on at one of the organization's auto-join domains (core/sso.ts).
  "member.auto-join",
  "member.edit",
  "member.remove",
  "invite.revoke",
  "org.edit",
  "org.remove",
  "orgauthtoken.create",
  "orgauthtoken.remove",
  "projectkey.create",
  "projectkey.edit",
  "projectkey.remove",
  "project.edit",
  "project.remove",
  "rule.create",
  "rule.edit",
  "rule.remove",
  "alertrule.create",
  "alertrule.edit",
  "alertrule.remove",
  "personal-data.erase",
  // The instance's own events (organization null).
  "api-token.create",
  "api-token.remove",
  "user.password-change",
  "user.two-factor-enable",
  "user.two-factor-disable",
  "user.recovery-codes",
  "user.sso-link",
  "sso.settings-edit",
  "user.session-revoke",
  "auth.sign-in-failed",
  "auth.lock-out",
] as const;

export type AuditEvent = (typeof AUDIT_EVENTS)[number];

/** What the sign-in page's failures and lock-outs are filed under; superusers see them (instance settings → Security). */
export const SIGN_IN_EVENTS: readonly AuditEvent[] = ["auth.sign-in-failed", "auth.lock-out"];

export type AuditChange = {
  organizationId: number | null;
  event: AuditEvent;
  /** The id or key of what changed (a member, a key's public key, a rule). */
  target?: string | number | null;
  targetUserId?: string | null;
  /** One line in English, as Sentry's `note`. */
  note: string;
  /** What changed: `old` and `new` where a value was replaced, and the change's facts. Never a secret. */
  data?: Record<string, unknown>;
};

function actorOf(actor: Actor): { actorUserId: string | null; actorLabel: string } {
  if ("orgToken" in actor) return { actorUserId: null, actorLabel: `organization token #${actor.orgToken.id}` };
  return { actorUserId: actor.user.id, actorLabel: actor.user.email };
}

/** A text cut to the trail's limit (what a person typed, e.g. a failed sign-in's address, can be anything). */
const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}…` : s);

/** Keys whose values are webhook addresses: their paths often hold the secret (Slack's, Discord's), so only the origin is kept. */
const URL_KEYS = new Set(["url", "webhookUrl"]);

/** The change's data with every webhook address cut to its origin, at any depth. */
function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      if (!URL_KEYS.has(k) || typeof v !== "string") return [k, redact(v, depth + 1)];
      try {
        return [k, `${new URL(v).origin}/…`];
      } catch {
        return [k, "…"];
      }
    }),
  );
}

/** Records a change made by `ctx`'s actor from `ctx.ip`. Called after the change succeeded. */
export async function audit(ctx: CoreContext, change: AuditChange): Promise<void> {
  await ctx.store.recordAudit({
    organizationId: change.organizationId,
    event: change.event,
    ...actorOf(ctx.actor),
    ipAddress: ctx.ip ?? null,
    targetObject: change.target === undefined || change.target === null ? null : String(change.target),
    targetUserId: change.targetUserId ?? null,
    note: clip(change.note, AUDIT_LIMITS.noteMaxLength),
    data: JSON.stringify(redact(change.data ?? {})),
    createdAt: new Date().toISOString(),
  });
}

/**
 * A sign-in that failed (wrong address or password) or was refused for too many attempts (a lock-out), from the
 * sign-in page or an invitation's; recorded for the instance. The address typed is kept (cut short), never the password.
 */
export async function recordSignInAttempt(store: Store, attempt: { email: string; ip: string | null; lockedOut: boolean }): Promise<void> {
  const email = clip(attempt.email.replace(/[\u0000-\u001f\u007f]/g, ""), AUDIT_LIMITS.emailMaxLength);
  await store.recordAudit({
    organizationId: null,
    event: attempt.lockedOut ? "auth.lock-out" : "auth.sign-in-failed",
    actorUserId: null,
    actorLabel: email || "—",
    ipAddress: attempt.ip,
    targetObject: null,
    targetUserId: (await store.getUserByEmail(email.toLowerCase()).catch(() => null))?.id ?? null,
    note: attempt.lockedOut ? `too many sign-in attempts for ${email}` : `failed sign-in for ${email}`,
    data: JSON.stringify({ email }),
    createdAt: new Date().toISOString(),
  });
}

/** An entry as the screens and the API show it: the data parsed, the cursor its id. */
export type AuditView = Omit<AuditEntry, "data"> & { data: Record<string, unknown> };

export type AuditPage = { entries: AuditView[]; nextCursor: string | null; events: string[]; actors: { userId: string; label: string }[] };

/**
 * Strings of any length: one too long to name an event, an actor or an entry finds nothing or starts at the newest, as
 * any other that names none (the pages pass the address's parameters as they come, and answered 500 to a long one).
 */
const querySchema = z.object({ event: z.string().optional(), actor: z.string().optional(), cursor: z.string().optional() });
/** characters; the longest event name, actor id and cursor that can name one. */
const NAME_MAX = 100;
const CURSOR_MAX = 20;

function view(e: AuditEntry): AuditView {
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(e.data);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
  } catch {
    data = {};
  }
  return { ...e, data };
}

async function page(store: Store, organizationId: number | null, input: unknown): Promise<AuditPage> {
  const q = parseInput(querySchema, input);
  // A cursor that names no entry starts at the newest; an unknown event or actor finds nothing.
  const beforeId = q.cursor && q.cursor.length <= CURSOR_MAX ? (parseId(q.cursor) ?? undefined) : undefined;
  const limit = AUDIT_LIMITS.pageSize;
  // A filter no entry can match (control characters, NUL bytes PostgreSQL's text cannot hold) is answered at once.
  const named = (v: string | undefined, pattern: RegExp) => !v || (v.length <= NAME_MAX && pattern.test(v));
  const matchable = named(q.event, /^[a-z0-9.-]+$/) && named(q.actor, /^[A-Za-z0-9_-]+$/);
  const rows = !matchable
    ? []
    : await store.listAudit({ organizationId, events: q.event ? [q.event] : undefined, actorUserId: q.actor || undefined, beforeId, limit: limit + 1 });
  const entries = rows.slice(0, limit).map(view);
  const { events, actors } = await store.auditFacets(organizationId);
  return { entries, nextCursor: rows.length > limit ? String(entries[entries.length - 1]!.id) : null, events, actors };
}

/** The organization's trail, newest first, filtered by `event` and `actor` (a user id), a page after `cursor`. */
export async function listAuditLog(ctx: CoreContext, orgSlug: string, input: unknown): Promise<AuditPage> {
  const { org } = await requireOrg(ctx, orgSlug, "org:audit");
  return page(ctx.store, org.id, input);
}

/** The instance's trail (sign-in failures, lock-outs, personal tokens, password changes): superusers only. */
export async function listInstanceAuditLog(ctx: CoreContext, input: unknown): Promise<AuditPage> {
  if ("orgToken" in ctx.actor || !ctx.actor.user.isSuperuser) throw forbidden("Only superusers can see the instance's security log");
  return page(ctx.store, null, input);
}
