// POST /api/0/projects/{org}/{project}/user-feedback/ (issue 19): Sentry's deprecated user report endpoint, which
// older SDKs' capture_user_feedback and hand-written crash-report forms call with {event_id, name, email, comments}.
// As Sentry allows, it takes the project's DSN (`Authorization: DSN <dsn>`: an active key of this very project) or an
// API token or session of someone who may triage (issue:update, Sentry's project:write). A report for an event that
// already has one replaces it (Sentry keeps one per event); it is linked to the event's issue once both exist.
// Sentry's 30-minute window and 409 after 5 minutes are not applied: a late report is still worth keeping.
// A new report fires the project's alert rules as new feedback does in the digest, in the same transaction as its row
// (digest/feedback-alerts.ts); the senders find the outbox rows at their next look (NOTIFICATION_LIMITS.pollMs).
import { parseDsn } from "../protocol/auth";
import { feedbackOfUserReport, eventIdOf } from "../digest/feedback";
import { evaluateFeedbackAlerts } from "../digest/feedback-alerts";
import { linkBase } from "./links";
import type { Feedback } from "../storage/feedback-ports";
import type { Project, Store } from "../storage/ports";
import { assertCan, getOrgAccess, requireText } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";

export type FeedbackCredentials = { dsn: string } | { ctx: CoreContext };

const fieldError = (field: string, message: string) => new AppError("bad_request", message, { [field]: [message] });

/** The body as Sentry's UserReportSerializer reads it; a wrong type or a missing event id is a 400 naming the field. */
function checkBody(body: Record<string, unknown>): void {
  if (!eventIdOf(body.event_id)) throw fieldError("event_id", "event_id must be the id of an event (32 hexadecimal characters)");
  for (const field of ["name", "email", "comments"] as const) {
    const v = body[field];
    if (v !== undefined && v !== null && typeof v !== "string") throw fieldError(field, `${field} must be a string`);
  }
  if (typeof body.comments !== "string" || body.comments.replace(/\u0000/g, "").trim() === "") throw fieldError("comments", "comments must not be empty");
  const email = typeof body.email === "string" ? body.email.trim() : "";
  if (email !== "" && !/^[^\s@]+@[^\s@]+$/.test(email)) throw fieldError("email", "Enter a valid email address.");
}

async function projectOf(store: Store, organizationId: number, idOrSlug: string): Promise<Project | null> {
  const bySlug = await store.getProjectBySlug(organizationId, idOrSlug);
  if (bySlug || !/^\d{1,9}$/.test(idOrSlug)) return bySlug;
  const byId = await store.getProjectById(Number(idOrSlug));
  return byId && byId.organizationId === organizationId ? byId : null;
}

async function resolveProject(store: Store, credentials: FeedbackCredentials, orgSlug: string, projectSlug: string): Promise<Project> {
  requireText(projectSlug, "Project");
  if ("ctx" in credentials) {
    const access = await getOrgAccess(credentials.ctx, orgSlug);
    const project = await projectOf(store, access.org.id, projectSlug);
    if (!project) throw notFound("Project");
    assertCan(access, "issue:update");
    return project;
  }
  const dsn = parseDsn(credentials.dsn.trim());
  const key = dsn ? await store.getIntakeKey(dsn.publicKey) : null;
  if (!dsn || !key || !key.isActive || String(key.projectId) !== dsn.projectId) throw new AppError("unauthorized", "Invalid DSN");
  const org = await store.getOrganizationBySlug(requireText(orgSlug, "Organization"));
  const project = org ? await projectOf(store, org.id, projectSlug) : null;
  // A DSN of another project reads as if the project did not exist.
  if (!project || project.id !== key.projectId) throw notFound("Project");
  return project;
}

export async function submitUserFeedback(
  store: Store,
  credentials: FeedbackCredentials,
  orgSlug: string,
  projectSlug: string,
  body: Record<string, unknown>,
): Promise<Feedback> {
  const project = await resolveProject(store, credentials, orgSlug, projectSlug);
  checkBody(body);
  const row = feedbackOfUserReport(body, project.id, new Date().toISOString(), "api");
  const links = { base: linkBase() };
  const id = await store.digestTransaction(async (tx) => {
    const written = await tx.insertFeedback([row]);
    await evaluateFeedbackAlerts(store, tx, written, new Date(), links);
    return written[0]!.id;
  });
  const saved = await store.getFeedback(project.organizationId, id);
  if (!saved) throw notFound("Feedback");
  return saved;
}

/** The project's user reports for GET (Sentry lists user reports there, not widget feedback; Faultline lists both). */
export async function listProjectFeedback(ctx: CoreContext, orgSlug: string, projectSlug: string, limit: number): Promise<Feedback[]> {
  const access = await getOrgAccess(ctx, orgSlug);
  assertCan(access, "event:read");
  const project = await projectOf(ctx.store, access.org.id, requireText(projectSlug, "Project"));
  if (!project) throw notFound("Project");
  return ctx.store.listFeedback({ organizationId: access.org.id, status: null, projectIds: [project.id], limit });
}

/** Sentry's UserReport serializer shape. */
export function serializeUserReport(f: Feedback): Record<string, unknown> {
  return {
    id: String(f.id),
    eventID: f.associatedEventId ?? f.feedbackEventId,
    name: f.name,
    email: f.email,
    comments: f.message,
    dateCreated: f.receivedAt,
    user: f.details.user ?? null,
    event: { id: null, eventID: f.associatedEventId },
    issue: f.issue ? { id: String(f.issue.id), shortId: String(f.issue.shortId), title: f.issue.title } : null,
  };
}
