// The generic webhook: Sentry's legacy webhooks plugin body (sentry_plugins/webhook/plugin.py `get_group_data`: id,
// project, project_name, project_slug, logger, level, culprit, message, url, triggering_rules, event {…, tags,
// event_id, id}), so receivers written for Sentry work unchanged; signed as Sentry signs its service hooks: the hex
// HMAC-SHA256 of the exact body bytes with the project's webhook secret, in `Sentry-Hook-Signature`. Metric alerts and
// summaries, which the plugin never sent, follow Sentry's integration webhooks: `{action, data}`.
//
// New user feedback (a new issue of category FEEDBACK in Sentry) gets the same plugin body, as the plugin builds it
// for a feedback issue: `id` the feedback's (the issue is the feedback), level "info", `message` the feedback's text,
// `url` the feedback in Faultline's inbox, and `event` the feedback event with `type` "feedback" and
// `contexts.feedback` (message, contact_email, name, url, source, associated_event_id: Relay's UserReportV2Context,
// which is what Sentry stores and the plugin copies from event.data); the plugin sends the contact e-mail, and so does
// Faultline, signed, to the project's own receiver. `culprit` is the page the feedback was sent from ("" if none).
// Faultline adds `linked_issue` (the associated event's issue: id, short_id, title, url, or null); `source` is
// Faultline's (feedback, user_report, api).
import { createHmac } from "node:crypto";
import { NOTIFICATION_LIMITS } from "../config/limits";
import type { FeedbackNotificationPayload, IssueNotificationPayload, NotificationPayload } from "../storage/notification-ports";
import { truncate } from "./render-common";

export type RenderedRequest = { body: string; headers: Record<string, string> };

function issueBody(p: IssueNotificationPayload): Record<string, unknown> {
  const tags = p.event?.tags ?? [];
  const tag = (key: string) => tags.find(([k]) => k === key)?.[1] ?? null;
  const message = truncate(p.event?.message || p.issue.title, NOTIFICATION_LIMITS.messageChars);
  const event: Record<string, unknown> = p.event
    ? {
        event_id: p.event.eventId,
        id: p.event.eventId,
        title: p.issue.title,
        message,
        culprit: p.issue.culprit,
        level: tag("level") ?? p.issue.level,
        logger: tag("logger"),
        platform: p.event.platform,
        timestamp: p.event.timestamp,
        environment: p.event.environment,
        release: p.event.release,
        tags: tags.map(([k, v]) => [k, v]),
        ...(p.event.url ? { request: { url: p.event.url } } : {}),
      }
    : { title: p.issue.title, culprit: p.issue.culprit, level: p.issue.level, tags: [] };
  return {
    id: String(p.issue.id),
    project: p.project.slug,
    project_name: p.project.name,
    project_slug: p.project.slug,
    logger: tag("logger"),
    level: tag("level") ?? p.issue.level,
    culprit: p.issue.culprit,
    message,
    url: p.issueUrl,
    triggering_rules: p.ruleName ? [p.ruleName] : [],
    event,
  };
}

function feedbackBody(p: FeedbackNotificationPayload): Record<string, unknown> {
  const f = p.feedback;
  const message = truncate(f.message, NOTIFICATION_LIMITS.feedbackMessageChars);
  const eventId = f.feedbackEventId ?? f.associatedEventId;
  const event: Record<string, unknown> = {
    ...(eventId ? { event_id: eventId, id: eventId } : {}),
    type: "feedback",
    title: "User Feedback",
    message,
    level: "info",
    logger: null,
    platform: "other",
    timestamp: f.receivedAt,
    environment: f.environment,
    release: f.release,
    tags: f.tags.map(([k, v]) => [k, v]),
    contexts: {
      feedback: { message, contact_email: f.email, name: f.name, url: f.url, source: f.source, associated_event_id: f.associatedEventId },
    },
    ...(f.url ? { request: { url: f.url } } : {}),
  };
  return {
    id: String(f.id),
    project: p.project.slug,
    project_name: p.project.name,
    project_slug: p.project.slug,
    logger: null,
    level: "info",
    culprit: f.url,
    message,
    url: p.feedbackUrl,
    triggering_rules: p.ruleName ? [p.ruleName] : [],
    event,
    linked_issue: p.issue ? { id: String(p.issue.id), short_id: p.issue.shortId, title: p.issue.title, url: p.issue.url } : null,
  };
}

function body(p: NotificationPayload): Record<string, unknown> {
  if (p.kind === "issue") return issueBody(p);
  if (p.kind === "feedback") return feedbackBody(p);
  if (p.kind === "metric") {
    return {
      action: p.status,
      data: {
        metric_alert: {
          title: p.ruleName,
          aggregate: p.aggregate,
          time_window: p.timeWindow,
          organization: p.organization.slug,
          project: p.project?.slug ?? null,
        },
        value: p.value,
        threshold: p.threshold,
        description_title: `${p.status === "resolved" ? "Resolved" : p.status === "critical" ? "Critical" : "Warning"}: ${p.ruleName}`,
        web_url: p.url,
      },
    };
  }
  return {
    action: "weekly_summary",
    data: {
      organization: p.organization.slug,
      from: p.from,
      to: p.to,
      new_issues: p.newIssues,
      events: p.events,
      crash_free_sessions: p.crashFreeSessions,
      top_issues: p.topIssues.map((i) => ({ short_id: i.shortId, title: i.title, count: i.count, url: i.url })),
      web_url: p.url,
    },
  };
}

const RESOURCES = { issue: "event_alert", feedback: "event_alert", metric: "metric_alert", summary: "weekly_summary" } as const;

/** The hex HMAC-SHA256 of `body`'s UTF-8 bytes with `secret`: what Sentry-Hook-Signature carries. */
export function signBody(body: string, secret: string): string {
  return createHmac("sha256", secret).update(Buffer.from(body, "utf8")).digest("hex");
}

/**
 * The request of the generic webhook. `secret` is the project's webhook secret (projects.webhook_secret); without one
 * the body goes unsigned. The idempotency key goes in `Idempotency-Key` and in Sentry's `Request-ID`.
 */
export function renderWebhook(payload: NotificationPayload, idempotencyKey: string, secret: string | null, now: Date = new Date()): RenderedRequest {
  const text = JSON.stringify(body(payload));
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "idempotency-key": idempotencyKey,
    "request-id": idempotencyKey,
    "sentry-hook-resource": RESOURCES[payload.kind],
    "sentry-hook-timestamp": String(Math.floor(now.getTime() / 1000)),
  };
  if (secret) headers["sentry-hook-signature"] = signBody(text, secret);
  return { body: text, headers };
}
