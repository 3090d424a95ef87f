// What the permission tests share (permissions.test.ts, permissions-accounts.test.ts, permission-mutations.ts): one
// in-memory core per test file (coreForThisFile), and a fresh world per test: an organization with its owner, project,
// team, a member to act upon, an outsider, and one of each object a permission guards.
import { after, before } from "node:test";
import { createOrgToken } from "../../src/core/org-tokens";
import type { CoreContext } from "../../src/core/context";
import { createProject } from "../../src/core/projects";
import { listKeys } from "../../src/core/keys";
import { createTeam } from "../../src/core/teams";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import { createOrganization } from "../../src/core/organizations";
import { feedbackOfUserReport } from "../../src/digest/feedback";
import type { User } from "../../src/storage/ports";
import { SSO_PROVIDER_ID } from "../../src/core/sso";
import { joinByInvitation, type TestCore, testCore, uniq } from "../helpers/core";

export type World = {
  org: string;
  project: string;
  team: string;
  key: string;
  targetMemberId: number;
  targetUserId: string;
  outsiderEmail: string;
  issueId: number;
  commentId: number;
  orgTokenId: number;
  ruleId: number;
  feedbackId: number;
  eventId: string;
  attachmentId: string;
};

export const RULE = {
  name: "Errors",
  actionMatch: "all",
  conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }],
  actions: [{ id: "sentry.rules.actions.notify_event_service.NotifyEventServiceAction", service: "webhooks", url: "https://93.184.216.34/hook" }],
};

export const CHUNK = new Uint8Array(Buffer.from("console.log(1)"));

/** Each mutation: the permission it needs and how to attempt it in a fresh world. */
export const issueEvent = (projectId: number): DigestedEvent => ({
  projectId,
  eventId: crypto.randomUUID().replace(/-/g, ""),
  type: "error",
  receivedAt: new Date().toISOString(),
  timestamp: new Date().toISOString(),
  platform: "python",
  level: "error",
  title: "E: x",
  message: "",
  culprit: "",
  release: null,
  environment: null,
  size: 2,
  data: "{}",
  category: "error",
  grouping: { config: "c", hashes: ["h"] },
  metadata: "{}",
  userKey: null,
  tags: [],
});

/** The test file's core (coreForThisFile); a live binding, set before its tests run. */
export let t: TestCore;

/** Marks the acting person as enrolled in two-factor sign-in (as better-auth does once they confirm a first code). */
export async function withTwoFactor(c: CoreContext): Promise<void> {
  if ("orgToken" in c.actor) return;
  await t.db.kysely
    .updateTable("users")
    .set({ two_factor_enabled: t.db.dialect === "sqlite" ? 1 : true })
    .where("id", "=", c.actor.user.id)
    .execute();
}
/** Links the acting person to the SSO provider (as better-auth does at their first single sign-on). */
export async function withSsoAccount(c: CoreContext): Promise<void> {
  if ("orgToken" in c.actor) return;
  const now = new Date().toISOString();
  await t.db.kysely
    .insertInto("accounts")
    .values({
      id: crypto.randomUUID(),
      account_id: `sub-${c.actor.user.id}`,
      provider_id: SSO_PROVIDER_ID,
      user_id: c.actor.user.id,
      access_token: null,
      refresh_token: null,
      id_token: null,
      access_token_expires_at: null,
      refresh_token_expires_at: null,
      scope: null,
      password: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Opens the core before the calling file's tests and closes it after them. */
export function coreForThisFile(): void {
  before(async () => {
    t = await testCore();
  });
  after(async () => {
    await t.close();
  });
}

export async function user(isSuperuser = false): Promise<User> {
  return t.accounts.createUser({ email: `${uniq("u")}@example.com`, password: "password123", name: "Test", isSuperuser });
}

/** A fresh organization with an owner, a project, a team, a plain member to act upon, and an account outside it. */
export async function world(): Promise<{ w: World; owner: User }> {
  const owner = await user();
  const ctx = t.as(owner);
  const org = await createOrganization(ctx, { name: uniq("Org") });
  const team = await createTeam(ctx, org.slug, { slug: uniq("team") });
  const project = await createProject(ctx, org.slug, { name: uniq("Project"), platform: "python" });
  const { keys } = await listKeys(ctx, org.slug, project.slug);
  const p = (await t.store.getProjectBySlug((await t.store.getOrganizationBySlug(org.slug))!.id, project.slug))!;
  const event = issueEvent(p.id);
  const report = feedbackOfUserReport(
    { event_id: event.eventId, name: "Ann", email: "ann@example.com", comments: "It broke" },
    p.id,
    new Date().toISOString(),
    "user_report",
  );
  const blobKey = `perm${crypto.randomUUID().replace(/-/g, "")}`;
  await t.store.attachmentBlobs.write(blobKey, (await import("node:zlib")).gzipSync("screenshot bytes"));
  const attachment = {
    projectId: p.id,
    eventId: event.eventId,
    blobKey,
    name: "screen.png",
    contentType: "image/png",
    attachmentType: "event.attachment" as const,
    size: 16,
    storedSize: 36,
    codec: "gzip" as const,
    sha1: "0".repeat(40),
    receivedAt: event.receivedAt,
  };
  await writeBatch(t.store, {
    spoolId: uniq("spool"),
    position: 1,
    rawItems: [],
    outcomes: [],
    events: [event],
    feedback: [report],
    attachments: [attachment],
  });
  const attachmentId = String((await t.store.listAttachments(p.id, event.eventId))[0]!.id);
  const feedbackId = (await t.store.listFeedback({ organizationId: p.organizationId, status: null, limit: 1 }))[0]!.id;
  const issueId = (await t.store.listIssues(p.id, { page: { limit: 1 } })).items[0]!.id;
  await t.store.upsertRelease({ organizationId: p.organizationId, version: "app@1.0.0", projectIds: [p.id], createdAt: new Date().toISOString() });
  const target = await joinByInvitation(t, ctx, org.slug, { email: (await user()).email, role: "member" });
  const outsider = await user();
  const comment = await t.store.addIssueActivity(issueId, {
    type: "note",
    userId: target.userId,
    data: JSON.stringify({ text: "by the target" }),
    createdAt: new Date().toISOString(),
  });
  const { token } = await createOrgToken(ctx, org.slug, { name: "CI" }, "http://localhost:9000");
  const ruleId = (await t.store.listAlertRules(p.id))[0]!.id;
  await t.store.createMonitor(
    {
      projectId: p.id,
      slug: "nightly",
      name: "Nightly",
      scheduleType: "crontab",
      schedule: "0 3 * * *",
      intervalUnit: null,
      timezone: "UTC",
      checkinMargin: null,
      maxRuntime: null,
      failureIssueThreshold: null,
      recoveryThreshold: null,
    },
    new Date().toISOString(),
  );
  return {
    w: {
      org: org.slug,
      project: project.slug,
      team: team.slug,
      key: keys[0]!.publicKey,
      targetMemberId: target.id,
      targetUserId: target.userId,
      outsiderEmail: outsider.email,
      issueId,
      commentId: comment.id,
      orgTokenId: token.id,
      ruleId,
      feedbackId,
      eventId: event.eventId,
      attachmentId,
    },
    owner,
  };
}
