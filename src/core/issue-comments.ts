// Comments on issues (Sentry's GroupNotes): activity entries of type "note" with data {text}. Members comment;
// the author edits a comment; the author, an admin or an owner deletes it.
import { z } from "zod";
import { TRIAGE_LIMITS } from "../config/limits";
import type { IssueActivityEntry } from "../storage/issue-ports";
import type { Page, PageRequest } from "../storage/ports";
import { allowed, assertCan, getOrgAccess, requireId } from "./access";
import { actingUser, type CoreContext } from "./context";
import { forbidden, notFound } from "./errors";
import { getIssue, type IssueView } from "./issues";
import { linkBase } from "./links";
import { parseInput } from "./schemas";

const noteSchema = z.object({
  text: z
    .string({ error: "Enter a comment" })
    .trim()
    .min(1, "Enter a comment")
    .max(TRIAGE_LIMITS.commentMaxLength, `At most ${TRIAGE_LIMITS.commentMaxLength} characters`),
});

export async function listComments(ctx: CoreContext, issueId: unknown, page: PageRequest): Promise<Page<IssueActivityEntry>> {
  const view = await getIssue(ctx, issueId);
  return ctx.store.listIssueActivity(view.issue.id, "note", page);
}

export async function addComment(ctx: CoreContext, issueId: unknown, body: unknown): Promise<IssueActivityEntry> {
  const view = await getIssue(ctx, issueId);
  assertCan(await getOrgAccess(ctx, view.orgSlug), "issue:comment");
  const { text } = parseInput(noteSchema, body);
  const author = actingUser(ctx).id;
  // The author takes part from now on; everyone else taking part (and subscribed) hears of the comment.
  return ctx.store.addIssueActivity(
    view.issue.id,
    { type: "note", userId: author, data: JSON.stringify({ text }), createdAt: new Date().toISOString() },
    { trigger: "comment", actorUserId: author, to: "participants", participant: { userId: author, reason: "comment" }, text, linkBase: linkBase() },
  );
}

/** The comment with the actor's rights on it: whether they wrote it, and whether they may delete others'. */
async function comment(
  ctx: CoreContext,
  issueId: unknown,
  commentId: unknown,
): Promise<{ view: IssueView; note: IssueActivityEntry; own: boolean; moderator: boolean }> {
  const view = await getIssue(ctx, issueId);
  const note = await ctx.store.getIssueActivity(view.issue.id, requireId(commentId, "Comment"));
  if (!note || note.type !== "note") throw notFound("Comment");
  const access = await getOrgAccess(ctx, view.orgSlug);
  assertCan(access, "issue:comment");
  return { view, note, own: note.userId === actingUser(ctx).id, moderator: allowed(access, "comment:moderate") };
}

export async function updateComment(ctx: CoreContext, issueId: unknown, commentId: unknown, body: unknown): Promise<IssueActivityEntry> {
  const { view, note, own } = await comment(ctx, issueId, commentId);
  if (!own) throw forbidden("Only the author can edit a comment");
  const { text } = parseInput(noteSchema, body);
  await ctx.store.updateIssueActivityData(view.issue.id, note.id, JSON.stringify({ ...note.data, text }));
  return (await ctx.store.getIssueActivity(view.issue.id, note.id))!;
}

export async function deleteComment(ctx: CoreContext, issueId: unknown, commentId: unknown): Promise<void> {
  const { view, note, own, moderator } = await comment(ctx, issueId, commentId);
  if (!own && !moderator) throw forbidden("Only the author, an admin or an owner can delete a comment");
  await ctx.store.deleteIssueActivity(view.issue.id, note.id);
}
