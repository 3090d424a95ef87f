// Expanding an e-mail action (Sentry's NotifyEmailAction) into the people it reaches, at send time: IssueOwners is the
// issue's assignee (a user, or a team's members), else the fallthrough (ActiveMembers: the project's team, or every
// member when the project has no team; AllMembers; NoOne); Team is that team's members; Member that one member. Only
// members of the notification's organization are ever returned: an id naming anyone else reaches nobody.
import type { Notification, NotificationRecipient, NotificationStore, NewNotification } from "../storage/notification-ports";
import { EMAIL_ACTION, RECIPIENT_ACTION } from "../storage/notification-ports";

type Reads = Pick<NotificationStore, "listOrganizationRecipients" | "listTeamRecipients" | "getProjectTeam" | "getIssueAssignee">;

type EmailAction = Extract<Notification["action"], { id: typeof EMAIL_ACTION }>;

const idNumber = (v: string | number | null | undefined): number | null => {
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,10}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

async function fallthrough(store: Reads, n: Notification, type: EmailAction["fallthroughType"]): Promise<NotificationRecipient[]> {
  if (type === "NoOne") return [];
  // A notification of no project (a metric alert over all of them) falls through to the whole organization.
  if (type === "AllMembers" || n.projectId === null) return store.listOrganizationRecipients(n.organizationId);
  const project = await store.getProjectTeam(n.organizationId, n.projectId);
  if (!project) return [];
  return project.teamId === null ? store.listOrganizationRecipients(n.organizationId) : store.listTeamRecipients(n.organizationId, project.teamId);
}

async function issueOwners(store: Reads, n: Notification, action: EmailAction): Promise<NotificationRecipient[]> {
  const assignee = n.issueId !== null ? await store.getIssueAssignee(n.organizationId, n.issueId) : null;
  let owners: NotificationRecipient[] = [];
  if (assignee?.userId) owners = await store.listOrganizationRecipients(n.organizationId, [assignee.userId]);
  else if (assignee?.teamId) owners = await store.listTeamRecipients(n.organizationId, assignee.teamId);
  return owners.length > 0 ? owners : fallthrough(store, n, action.fallthroughType ?? "ActiveMembers");
}

/** The members an e-mail action of `n` reaches, each once. */
export async function emailRecipients(store: Reads, n: Notification, action: EmailAction): Promise<NotificationRecipient[]> {
  let found: NotificationRecipient[];
  if (action.targetType === "IssueOwners") found = await issueOwners(store, n, action);
  else if (action.targetType === "Team") {
    const team = idNumber(action.targetIdentifier);
    found = team === null ? [] : await store.listTeamRecipients(n.organizationId, team);
  } else {
    const user = action.targetIdentifier === null || action.targetIdentifier === undefined ? "" : String(action.targetIdentifier);
    found = user === "" ? [] : await store.listOrganizationRecipients(n.organizationId, [user]);
  }
  const seen = new Set<string>();
  return found.filter((r) => !seen.has(r.userId) && seen.add(r.userId));
}

/** One notification per recipient, keyed `<parent key>:user:<id>`, as the parent was decided (same time, same payload). */
export function recipientNotifications(
  parent: Notification,
  recipients: NotificationRecipient[],
  locale: (userId: string) => string = () => "en",
): NewNotification[] {
  return recipients.map((r) => ({
    organizationId: parent.organizationId,
    projectId: parent.projectId,
    source: parent.source,
    ruleId: parent.ruleId,
    issueId: parent.issueId,
    action: { id: RECIPIENT_ACTION, userId: r.userId, email: r.email, locale: locale(r.userId) },
    payload: parent.payload,
    idempotencyKey: `${parent.idempotencyKey}:user:${r.userId}`,
    createdAt: parent.createdAt,
  }));
}
