// The feedback inbox (issue 19): an organization's user feedback, newest first, filtered by status (new, resolved,
// spam), opened one at a time, marked resolved or spam and assigned to a member; and the feedback of an issue's
// events for its page. Reading is event:read, triage is issue:update (core/permissions.ts).
import { z } from "zod";
import { FEEDBACK_LIMITS } from "../config/limits";
import { FEEDBACK_STATUSES, type Feedback, type FeedbackStatus } from "../storage/feedback-ports";
import type { Member } from "../storage/ports";
import { allowed, requireId, requireOrg } from "./access";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import { getIssue } from "./issues";
import { parseId, parseInput } from "./schemas";

export type FeedbackInbox = {
  items: Feedback[];
  counts: Record<FeedbackStatus, number>;
  status: FeedbackStatus | null;
  /** The id to page on from (`before`), when there may be more. */
  nextBefore: number | null;
};

/** A status filter from a URL: one of the statuses, "all" (null), else "new", the inbox's default. */
export function readStatusFilter(raw: unknown): FeedbackStatus | null {
  if (raw === "all") return null;
  return typeof raw === "string" && (FEEDBACK_STATUSES as readonly string[]).includes(raw) ? (raw as FeedbackStatus) : "new";
}

export async function listFeedbackInbox(ctx: CoreContext, orgSlug: string, query: { status?: unknown; before?: unknown } = {}): Promise<FeedbackInbox> {
  const access = await requireOrg(ctx, orgSlug, "event:read");
  const status = readStatusFilter(query.status);
  const before = query.before === undefined ? null : parseId(query.before);
  const limit = FEEDBACK_LIMITS.pageSize;
  const [rows, counts] = await Promise.all([
    ctx.store.listFeedback({ organizationId: access.org.id, status, limit: limit + 1, beforeId: before }),
    ctx.store.countFeedback(access.org.id),
  ]);
  const items = rows.slice(0, limit);
  return { items, counts, status, nextBefore: rows.length > limit ? items[items.length - 1]!.id : null };
}

export type FeedbackView = { feedback: Feedback; assignee: Member | null; members: Member[]; may: { update: boolean } };

export async function getFeedbackView(ctx: CoreContext, orgSlug: string, id: unknown): Promise<FeedbackView> {
  const access = await requireOrg(ctx, orgSlug, "event:read");
  const feedback = await ctx.store.getFeedback(access.org.id, requireId(id, "Feedback"));
  if (!feedback) throw notFound("Feedback");
  const members = await ctx.store.listMembers(access.org.id);
  return { feedback, assignee: members.find((m) => m.userId === feedback.assigneeUserId) ?? null, members, may: { update: allowed(access, "issue:update") } };
}

const statusSchema = z.object({ status: z.enum(FEEDBACK_STATUSES, { error: `Status must be one of ${FEEDBACK_STATUSES.join(", ")}` }) });

export async function setFeedbackStatus(ctx: CoreContext, orgSlug: string, id: unknown, input: unknown): Promise<Feedback> {
  const access = await requireOrg(ctx, orgSlug, "issue:update");
  const { status } = parseInput(statusSchema, input);
  const updated = await ctx.store.updateFeedback(access.org.id, requireId(id, "Feedback"), { status });
  if (!updated) throw notFound("Feedback");
  return updated;
}

/** `assignee`: a member's user id, or "" / null to unassign; anyone else is refused with 400. */
export async function assignFeedback(ctx: CoreContext, orgSlug: string, id: unknown, assignee: unknown): Promise<Feedback> {
  const access = await requireOrg(ctx, orgSlug, "issue:update");
  let userId: string | null = null;
  if (assignee !== null && assignee !== "" && assignee !== undefined) {
    if (typeof assignee !== "string" || assignee.length > 200) throw new AppError("bad_request", "Choose a member", { assignee: ["Choose a member"] });
    const member = await ctx.store.getMembership(access.org.id, assignee);
    if (!member)
      throw new AppError("bad_request", "Only members of the organization can be assigned", { assignee: ["Only members of the organization can be assigned"] });
    userId = assignee;
  }
  const updated = await ctx.store.updateFeedback(access.org.id, requireId(id, "Feedback"), { assigneeUserId: userId });
  if (!updated) throw notFound("Feedback");
  return updated;
}

/** The feedback of an issue's events, newest first (spam left out), for its page. */
export async function listIssueFeedback(ctx: CoreContext, issueId: unknown): Promise<Feedback[]> {
  const view = await getIssue(ctx, issueId);
  return ctx.store.listIssueFeedback(view.issue.id, FEEDBACK_LIMITS.perIssue);
}
