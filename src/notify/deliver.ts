// Delivering one claimed notification: the request or e-mail its action names, and what becomes of it (sent, retried
// later with exponential backoff and jitter, or failed: at once when trying again cannot help, else once a day has
// passed since it was decided). An e-mail action is not sent itself: it becomes one notification per recipient.
import { createHash } from "node:crypto";
import { NOTIFICATION_LIMITS } from "../config/limits";
import { formatShortId } from "../core/short-id";
import {
  DISCORD_ACTION,
  EMAIL_ACTION,
  type NewNotification,
  type NewNotificationAttempt,
  type Notification,
  type NotificationOutcome,
  type NotificationRecipient,
  RECIPIENT_ACTION,
  SLACK_ACTION,
  TEAMS_ACTION,
  WEBHOOK_ACTION,
} from "../storage/notification-ports";
import type { SenderStore } from "../storage/notification-settings-ports";
import type { Resolve } from "../digest/symbolicate/fetch";
import { DeliveryError, describeTarget, postToTarget } from "./http";
import { MailError, type NotificationMailer } from "./mailer";
import { emailRecipients, recipientNotifications } from "./recipients";
import { renderDiscord } from "./render-discord";
import { renderEmail } from "./render-email";
import { renderSlack } from "./render-slack";
import { renderTeams } from "./render-teams";
import { renderWebhook } from "./render-webhook";

export type DeliveryContext = {
  store: Pick<
    SenderStore,
    | "getProjectWebhookSecret"
    | "listOrganizationRecipients"
    | "listTeamRecipients"
    | "getProjectTeam"
    | "getIssueAssignee"
    | "recipientPreferences"
    | "getFeedback"
  >;
  mailer: NotificationMailer;
  allowedHosts: readonly string[];
  /** milliseconds since the epoch */
  now: () => number;
  requestTimeoutMs: number;
  retryBaseMs: number;
  resolve?: Resolve;
};

export type Delivered =
  | { kind: "done"; attempt: NewNotificationAttempt; outcome: NotificationOutcome }
  | { kind: "expand"; attempt: NewNotificationAttempt; children: NewNotification[] };

/** The wait before attempt number `attempt + 1` (attempt ≥ 1): base · 2^(attempt−1), capped, spread by the jitter. */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const plain = Math.min(NOTIFICATION_LIMITS.retryMaxDelayMs, baseMs * 2 ** Math.min(30, Math.max(0, attempt - 1)));
  return Math.round(plain * (1 - NOTIFICATION_LIMITS.retryJitter + 2 * NOTIFICATION_LIMITS.retryJitter * random()));
}

const cut = (s: string) => s.slice(0, NOTIFICATION_LIMITS.errorMaxChars);

/** What follows a failed attempt: failed for good, or pending until the next try (failed past the day). */
function afterFailure(n: Notification, ctx: DeliveryContext, error: string, permanent: boolean): NotificationOutcome {
  if (permanent) return { status: "failed", error: cut(error) };
  const next = ctx.now() + retryDelayMs(n.attempts + 1, ctx.retryBaseMs);
  const deadline = Date.parse(n.createdAt) + NOTIFICATION_LIMITS.maxAgeMs;
  if (next > deadline)
    return { status: "failed", error: cut(`gave up ${Math.round(NOTIFICATION_LIMITS.maxAgeMs / 3_600_000)} h after it was due; last error: ${error}`) };
  return { status: "pending", nextAttemptAt: new Date(next).toISOString(), error: cut(error) };
}

/** Whether an HTTP status is worth trying again: server errors, timeouts and rate limits; other 4xx and 3xx are not. */
const retryable = (status: number) => status >= 500 || status === 408 || status === 425 || status === 429;

function webhookRequest(n: Notification, secret: string | null, at: Date): { url: string; body: string; headers: Record<string, string> } | null {
  const a = n.action;
  const key = { "idempotency-key": n.idempotencyKey };
  const json = { "content-type": "application/json" };
  switch (a.id) {
    case WEBHOOK_ACTION:
      return { url: a.url, ...renderWebhook(n.payload, n.idempotencyKey, secret, at) };
    case SLACK_ACTION:
      return { url: a.webhookUrl, body: renderSlack(n.payload).body, headers: { ...json, ...key } };
    case DISCORD_ACTION:
      return { url: a.webhookUrl, body: renderDiscord(n.payload).body, headers: { ...json, ...key } };
    case TEAMS_ACTION:
      return { url: a.webhookUrl, body: renderTeams(n.payload).body, headers: { ...json, ...key } };
    default:
      return null;
  }
}

async function postWebhook(
  n: Notification,
  ctx: DeliveryContext,
  req: { url: string; body: string; headers: Record<string, string> },
  started: number,
): Promise<Delivered> {
  const attemptedAt = new Date(started).toISOString();
  const target = describeTarget(req.url);
  try {
    const answer = await postToTarget(req.url, req.body, req.headers, {
      allowedHosts: ctx.allowedHosts,
      timeoutMs: ctx.requestTimeoutMs,
      resolve: ctx.resolve,
    });
    const ok = answer.status >= 200 && answer.status < 300;
    const error = ok
      ? null
      : answer.status >= 300 && answer.status < 400
        ? `redirected (${answer.status}): redirects are not followed`
        : `the receiver answered ${answer.status}`;
    const attempt = { attemptedAt, durationMs: Date.now() - started, target, statusCode: answer.status, ok, error, responseExcerpt: answer.excerpt || null };
    return {
      kind: "done",
      attempt,
      outcome: ok ? { status: "sent", sentAt: new Date(ctx.now()).toISOString() } : afterFailure(n, ctx, error!, !retryable(answer.status)),
    };
  } catch (err) {
    const e = err instanceof DeliveryError ? err : new DeliveryError(String((err as Error)?.message ?? err), false);
    const attempt = { attemptedAt, durationMs: Date.now() - started, target, statusCode: null, ok: false, error: cut(e.message), responseExcerpt: null };
    return { kind: "done", attempt, outcome: afterFailure(n, ctx, e.message, e.permanent) };
  }
}

/** A Message-ID derived from the key: a repeated delivery of one notification is recognisably the same mail. */
const messageId = (key: string) => `<${createHash("sha256").update(key).digest("hex").slice(0, 40)}@faultline.notifications>`;

async function sendMail(n: Notification, ctx: DeliveryContext, started: number): Promise<Delivered> {
  const a = n.action;
  if (a.id !== RECIPIENT_ACTION) throw new Error("not a recipient");
  const attemptedAt = new Date(started).toISOString();
  const base = { attemptedAt, target: a.email, responseExcerpt: null as string | null };
  if (!ctx.mailer.available) {
    const error = "e-mail is not configured (FAULTLINE_SMTP_URL and FAULTLINE_MAIL_FROM)";
    return { kind: "done", attempt: { ...base, durationMs: 0, statusCode: null, ok: false, error }, outcome: { status: "failed", error } };
  }
  const mail = renderEmail(n.payload, n.source, a.locale);
  try {
    const receipt = await ctx.mailer.send({ to: a.email, ...mail, messageId: messageId(n.idempotencyKey), headers: { "Idempotency-Key": n.idempotencyKey } });
    const attempt = {
      ...base,
      durationMs: Date.now() - started,
      statusCode: receipt.code,
      ok: true,
      error: null,
      responseExcerpt: receipt.response.slice(0, NOTIFICATION_LIMITS.responseExcerptBytes),
    };
    return { kind: "done", attempt, outcome: { status: "sent", sentAt: new Date(ctx.now()).toISOString() } };
  } catch (err) {
    const code = err instanceof MailError ? err.code : null;
    const message = String((err as Error)?.message ?? err);
    const attempt = { ...base, durationMs: Date.now() - started, statusCode: code, ok: false, error: cut(message) };
    // 5xx: the server refused the message for good (no such mailbox, policy); anything else may pass later.
    return { kind: "done", attempt, outcome: afterFailure(n, ctx, message, err instanceof MailError && err.permanent) };
  }
}

/**
 * Those of an e-mail action's recipients who have not turned off e-mail from the notification's project (account
 * settings), each with their language. A notification of no project (a metric alert over all of them) has no
 * per-project setting to honour; its recipients get English.
 */
async function wantingEmail(
  ctx: DeliveryContext,
  n: Notification,
  found: NotificationRecipient[],
): Promise<{ recipients: NotificationRecipient[]; locale: (userId: string) => string }> {
  if (n.projectId === null || found.length === 0) return { recipients: found, locale: () => "en" };
  const prefs = new Map(
    (
      await ctx.store.recipientPreferences(
        found.map((r) => r.userId),
        n.projectId,
      )
    ).map((p) => [p.userId, p.locale]),
  );
  return { recipients: found.filter((r) => prefs.has(r.userId)), locale: (userId) => prefs.get(userId) ?? "en" };
}

/**
 * A feedback notification decided before its associated event was stored names no issue; the link is read again
 * when it is sent. An SDK sends the error and its feedback as two envelopes side by side, so the feedback is often
 * digested first (digest/feedback.ts links whichever comes second), and the receiver should still be told the issue.
 */
async function withLinkedIssue(n: Notification, ctx: DeliveryContext): Promise<Notification> {
  const p = n.payload;
  if (p.kind !== "feedback" || p.issue !== null || p.feedback.associatedEventId === null) return n;
  // Only a detail of the message: a database that cannot answer now does not hold the notification back.
  const issue = await ctx.store.getFeedback(p.organization.id, p.feedback.id).then(
    (f) => f?.issue,
    () => undefined,
  );
  const suffix = `/feedback/${p.feedback.id}`;
  if (!issue || !p.feedbackUrl.endsWith(suffix)) return n;
  const url = `${p.feedbackUrl.slice(0, -suffix.length)}/issues/${issue.id}`;
  return { ...n, payload: { ...p, issue: { id: issue.id, shortId: formatShortId(p.project.slug, issue.shortId), title: issue.title, url } } };
}

/** Delivers `n` once. Never throws for the receiver's sake; a failing database is the caller's to handle. */
export async function deliverNotification(claimed: Notification, ctx: DeliveryContext): Promise<Delivered> {
  const started = Date.now();
  const n = await withLinkedIssue(claimed, ctx);
  const a = n.action;
  if (a.id === EMAIL_ACTION) {
    const { recipients, locale } = await wantingEmail(ctx, n, await emailRecipients(ctx.store, n, a));
    const attempt = {
      attemptedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      target: `${recipients.length} recipient${recipients.length === 1 ? "" : "s"} (${a.targetType})`,
      statusCode: null,
      ok: true,
      error: null,
      responseExcerpt: null,
    };
    return { kind: "expand", attempt, children: recipientNotifications(n, recipients, locale) };
  }
  if (a.id === RECIPIENT_ACTION) return sendMail(n, ctx, started);
  const secret = a.id === WEBHOOK_ACTION && n.projectId !== null ? await ctx.store.getProjectWebhookSecret(n.projectId) : null;
  const req = webhookRequest(n, secret, new Date(ctx.now()));
  if (!req) {
    const error = `unknown action ${String((a as { id?: unknown }).id).slice(0, 100)}`;
    return {
      kind: "done",
      attempt: { attemptedAt: new Date(started).toISOString(), durationMs: 0, target: "(none)", statusCode: null, ok: false, error, responseExcerpt: null },
      outcome: { status: "failed", error },
    };
  }
  return postWebhook(n, ctx, req, started);
}
