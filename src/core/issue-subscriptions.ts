// Subscribing to an issue (Sentry's GroupSubscription): a member subscribes to hear of its comments and regressions,
// or unsubscribes, which also ends what taking part (being assigned, commenting) subscribed them to. "Who will be
// notified" lists those workflow notices reach and the people the project's alert rules would e-mail.
import { z } from "zod";
import { emailRecipients } from "../notify/recipients";
import { EMAIL_ACTION, type Notification } from "../storage/notification-ports";
import type { IssueSubscription, Recipient } from "../storage/notification-settings-ports";
import { getOrgAccess } from "./access";
import { actingUser, type CoreContext } from "./context";
import { forbidden } from "./errors";
import { getIssue, type IssueView } from "./issues";
import { parseInput } from "./schemas";

export type IssueNotifyList = {
  /** The acting person's subscription; null when they never took part nor chose. */
  subscription: IssueSubscription | null;
  /** Who hears of comments and regressions: active subscribers with workflow notices on. */
  workflow: Recipient[];
  /**
   * Who the project's active issue alert rules would e-mail about this issue, as the sender expands their e-mail
   * actions (notify/recipients.ts: the assignee or the fallthrough, a team, a member), with e-mail on for the project.
   */
  alerts: Recipient[];
};

async function alertRecipients(ctx: CoreContext, view: IssueView): Promise<Recipient[]> {
  const rules = (await ctx.store.listAlertRules(view.project.id)).filter((r) => r.status === "active");
  const at = { organizationId: view.project.organizationId, projectId: view.project.id, issueId: view.issue.id } as Notification;
  const userIds = new Set<string>();
  for (const rule of rules) {
    for (const action of rule.actions) {
      if (action.id !== EMAIL_ACTION) continue;
      for (const r of await emailRecipients(ctx.store, at, action)) userIds.add(r.userId);
    }
  }
  return userIds.size === 0 ? [] : ctx.store.recipientPreferences([...userIds], view.project.id);
}

export async function issueNotifyList(ctx: CoreContext, view: IssueView): Promise<IssueNotifyList> {
  const user = "user" in ctx.actor ? ctx.actor.user : null;
  const [subscription, workflow, alerts] = await Promise.all([
    user ? ctx.store.getIssueSubscription(user.id, view.issue.id) : null,
    ctx.store.issueWorkflowRecipients(view.issue.id),
    alertRecipients(ctx, view),
  ]);
  return { subscription, workflow, alerts };
}

const subscribeSchema = z.object({ subscribed: z.enum(["on", "off"], { error: "Choose subscribe or unsubscribe" }).transform((v) => v === "on") });

/** `body.subscribed`: "on" or "off". Only members of the issue's organization subscribe (notices reach members only). */
export async function setIssueSubscription(ctx: CoreContext, issueId: unknown, body: unknown): Promise<IssueSubscription> {
  const view = await getIssue(ctx, issueId);
  const user = actingUser(ctx);
  const access = await getOrgAccess(ctx, view.orgSlug);
  if (access.memberId === null) throw forbidden("Only members of the organization can subscribe to its issues");
  const { subscribed } = parseInput(subscribeSchema, body);
  await ctx.store.setIssueSubscription(user.id, view.issue.id, subscribed, new Date().toISOString());
  return (await ctx.store.getIssueSubscription(user.id, view.issue.id))!;
}
