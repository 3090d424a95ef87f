// The permission matrix, checked as a matrix: every role against every mutation, through the core services that
// the server actions and the API routes call; and another organization's objects answer not_found whatever the role.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createAccount, listAccounts } from "../../src/core/accounts";
import { listAuditLog } from "../../src/core/audit";
import { type DiskProbe, instanceDiskUsage } from "../../src/core/disk-usage";
import { createInvitation } from "../../src/core/invitations";
import { removeMember, updateMemberRole } from "../../src/core/members";
import { deleteOrganization, getOrganization, updateOrganization } from "../../src/core/organizations";
import { ORG_TOKEN_SCOPES, PERMISSIONS, type Permission } from "../../src/core/permissions";
import { authenticateOrgToken, createOrgToken, revokeOrgToken } from "../../src/core/org-tokens";
import type { CoreContext } from "../../src/core/context";
import { createProject, deleteProject, getProject, updateProject } from "../../src/core/projects";
import { createKey, deleteKey, listKeys, updateKey } from "../../src/core/keys";
import { createMetricAlert } from "../../src/core/metric-alerts";
import { createTeam, deleteTeam, setTeamMembership } from "../../src/core/teams";
import { deleteIssue, updateIssue, updateOrgIssues } from "../../src/core/issues";
import { addComment, deleteComment } from "../../src/core/issue-comments";
import { createRelease, deleteRelease, updateRelease } from "../../src/core/releases";
import { chunkUploadOptions, sha1Hex, uploadChunks } from "../../src/core/uploads";
import { assembleArtifactBundle } from "../../src/core/artifact-assemble";
import { uploadReleaseFile } from "../../src/core/release-files";
import { writeBatch } from "../../src/digest/commit";
import {
  alertRuleHistory,
  createAlertRule,
  deleteAlertRule,
  listAlertRules,
  sendTestNotification,
  setAlertsMemberWrite,
  updateAlertRule,
} from "../../src/core/alert-rules";
import type { DigestedEvent } from "../../src/digest/items";
import { ROLES, type Role } from "../../src/core/roles";
import { erasePersonData, exportPersonData, findPersonEvents, listErasures } from "../../src/core/personal-data";
import { previewScrubbing, updateOrganizationScrubbing } from "../../src/core/data-scrubbing";
import { createOrganization } from "../../src/core/organizations";
import { sendApiCheckIn } from "../../src/core/monitor-checkins";
import { createMonitor, deleteMonitor, getMonitor, listMonitors, setMonitorMuted, updateMonitor } from "../../src/core/monitors";
import { assignFeedback, getFeedbackView, listFeedbackInbox, listIssueFeedback, setFeedbackStatus } from "../../src/core/feedback";
import { submitUserFeedback } from "../../src/core/feedback-submit";
import { downloadEventAttachment, getEventAttachment, listEventAttachments } from "../../src/core/attachments";
import { updateOrganizationQuotas } from "../../src/core/organization-quotas";
import { feedbackOfUserReport } from "../../src/digest/feedback";
import { listProjectLogs, listTraceLogs, tailProjectLogs } from "../../src/core/logs";
import type { User } from "../../src/storage/ports";
import { isTwoFactorRequired, setRequireTwoFactor } from "../../src/core/two-factor";
import { getOrgSsoSettings, setOrgSsoSettings, SSO_PROVIDER_ID } from "../../src/core/sso";
import { joinByInvitation, outcome, type TestCore, testCore, uniq } from "../helpers/core";

type World = {
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

const RULE = {
  name: "Errors",
  actionMatch: "all",
  conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }],
  actions: [{ id: "sentry.rules.actions.notify_event_service.NotifyEventServiceAction", service: "webhooks", url: "https://93.184.216.34/hook" }],
};

const CHUNK = new Uint8Array(Buffer.from("console.log(1)"));

/** Each mutation: the permission it needs and how to attempt it in a fresh world. */
const MUTATIONS: Record<string, { permission: Permission; run: (c: CoreContext, w: World) => Promise<unknown> }> = {
  // Turning it on needs two-factor on the acting person's own account (core/two-factor.ts): the person has it here.
  "require two-factor of every member": {
    permission: "org:security",
    run: async (c, w) => (await withTwoFactor(c), setRequireTwoFactor(c, w.org, { requireTwoFactor: true })),
  },
  "issue 20 single sign-on: see the organization's SSO settings": { permission: "org:security", run: (c, w) => getOrgSsoSettings(c, w.org) },
  "issue 20 single sign-on: auto-join domains and their role": {
    permission: "org:security",
    run: (c, w) => setOrgSsoSettings(c, w.org, { requireSso: false, autoJoinDomains: ["example.com"], autoJoinRole: "viewer" }, true),
  },
  // Turning it on needs the acting person's own account linked to the provider (core/sso.ts): it is here.
  "issue 20 single sign-on: require SSO of every member": {
    permission: "org:security",
    run: async (c, w) => (await withSsoAccount(c), setOrgSsoSettings(c, w.org, { requireSso: true, autoJoinDomains: [], autoJoinRole: "member" }, true)),
  },
  "update organization": { permission: "org:update", run: (c, w) => updateOrganization(c, w.org, { name: "Renamed" }) },
  "delete organization": { permission: "org:delete", run: (c, w) => deleteOrganization(c, w.org) },
  "invite an address without an account": {
    permission: "member:add",
    run: (c, w) => createInvitation(c, w.org, { email: `${uniq("new")}@example.com`, role: "member" }),
  },
  "invite an address with an account": { permission: "member:add", run: (c, w) => createInvitation(c, w.org, { email: w.outsiderEmail, role: "member" }) },
  "change member role": { permission: "member:update", run: (c, w) => updateMemberRole(c, w.org, w.targetMemberId, { role: "admin" }) },
  "remove member": { permission: "member:remove", run: (c, w) => removeMember(c, w.org, w.targetMemberId) },
  "create team": { permission: "team:create", run: (c, w) => createTeam(c, w.org, { slug: uniq("team") }) },
  "delete team": { permission: "team:delete", run: (c, w) => deleteTeam(c, w.org, w.team) },
  "join team": { permission: "team:join", run: (c, w) => setTeamMembership(c, w.org, w.team, true) },
  "create project": { permission: "project:create", run: (c, w) => createProject(c, w.org, { name: uniq("Project") }) },
  "update project": { permission: "project:update", run: (c, w) => updateProject(c, w.org, w.project, { name: "Renamed" }) },
  "let the digest fetch sources from public URLs": {
    permission: "project:update",
    run: (c, w) => updateProject(c, w.org, w.project, { scrapeJavaScript: true }),
  },
  "delete project": { permission: "project:delete", run: (c, w) => deleteProject(c, w.org, w.project) },
  "create key": { permission: "key:create", run: (c, w) => createKey(c, w.org, w.project, { label: "CI" }) },
  "rename or disable key": { permission: "key:update", run: (c, w) => updateKey(c, w.org, w.project, w.key, { isActive: false }) },
  "revoke key": { permission: "key:delete", run: (c, w) => deleteKey(c, w.org, w.project, w.key) },
  "resolve issue": { permission: "issue:update", run: (c, w) => updateIssue(c, w.issueId, { status: "resolved" }) },
  "bulk-resolve issues of the organization": {
    permission: "issue:update",
    run: (c, w) => updateOrgIssues(c, w.org, [String(w.issueId)], { status: "resolved" }),
  },
  "delete issue": { permission: "issue:delete", run: (c, w) => deleteIssue(c, w.issueId) },
  "assign issue": { permission: "issue:update", run: (c, w) => updateIssue(c, w.issueId, { assignedTo: `user:${w.targetUserId}` }) },
  "comment on issue": { permission: "issue:comment", run: (c, w) => addComment(c, w.issueId, { text: "Looking into it" }) },
  "delete another's comment": { permission: "comment:moderate", run: (c, w) => deleteComment(c, w.issueId, w.commentId) },
  "create release": { permission: "release:write", run: (c, w) => createRelease(c, w.org, null, { version: uniq("v"), projects: [w.project] }) },
  "finalize release": {
    permission: "release:write",
    run: (c, w) => updateRelease(c, w.org, w.project, "app@1.0.0", { dateReleased: new Date().toISOString() }),
  },
  "delete release": { permission: "release:delete", run: (c, w) => deleteRelease(c, w.org, "app@1.0.0") },
  "ask for the chunk-upload options (sentry-cli)": {
    permission: "release:write",
    run: (c, w) => chunkUploadOptions(c, w.org, "http://localhost:9000/api/0/", ["artifact_bundles"]),
  },
  "upload chunks": { permission: "release:write", run: (c, w) => uploadChunks(c, w.org, [{ field: "file", filename: sha1Hex(CHUNK), data: CHUNK }]) },
  "assemble an artifact bundle": {
    permission: "release:write",
    run: (c, w) => assembleArtifactBundle(c, w.org, { checksum: sha1Hex(CHUNK), chunks: [sha1Hex(CHUNK)], projects: [w.project] }, ["artifact_bundles"]),
  },
  "upload a release file": {
    permission: "release:write",
    run: (c, w) =>
      uploadReleaseFile(c, w.org, null, "app@1.0.0", async () => ({
        file: { filename: "app.js", data: CHUNK },
        name: uniq("~/app.js"),
        dist: null,
        headers: [],
      })),
  },
  "create organization token": { permission: "org:tokens", run: (c, w) => createOrgToken(c, w.org, { name: "CI" }, "http://localhost:9000") },
  "revoke organization token": { permission: "org:tokens", run: (c, w) => revokeOrgToken(c, w.org, w.orgTokenId) },
  "create alert rule": { permission: "alert:write", run: (c, w) => createAlertRule(c, w.org, w.project, RULE) },
  "change alert rule": { permission: "alert:write", run: (c, w) => updateAlertRule(c, w.org, w.project, w.ruleId, { ...RULE, name: "Renamed" }) },
  "delete alert rule": { permission: "alert:write", run: (c, w) => deleteAlertRule(c, w.org, w.project, w.ruleId) },
  "send a test notification": { permission: "alert:write", run: (c, w) => sendTestNotification(c, w.org, w.project, w.ruleId, "http://localhost:9000") },
  "let members create alerts": { permission: "org:update", run: (c, w) => setAlertsMemberWrite(c, w.org, { alertsMemberWrite: true }) },
  "create a metric alert": {
    permission: "alert:write",
    run: (c, w) =>
      createMetricAlert(c, w.org, {
        name: "Errors",
        aggregate: "count()",
        timeWindow: 5,
        thresholdType: 0,
        projects: [w.project],
        triggers: [{ label: "critical", alertThreshold: 10, actions: [] }],
      }),
  },
  "issue 18 personal data: find a person's events": {
    permission: "privacy:manage",
    run: (c, w) => findPersonEvents(c, w.org, { field: "email", value: "ann@example.com" }),
  },
  "issue 18 personal data: export a person's events": { permission: "privacy:manage", run: (c, w) => exportPersonData(c, w.org, { field: "id", value: "42" }) },
  "issue 18 personal data: see the organization's erasures": { permission: "privacy:manage", run: (c, w) => listErasures(c, w.org) },
  "issue 20: see the organization's audit log": { permission: "org:audit", run: (c, w) => listAuditLog(c, w.org, {}) },
  "issue 18 personal data: erase a person's events": {
    permission: "privacy:manage",
    run: (c, w) => erasePersonData(c, w.org, { field: "any", value: "ann@example.com" }),
  },
  "issue 18 data scrubbing: change the project's settings": {
    permission: "project:update",
    run: (c, w) => updateProject(c, w.org, w.project, { sensitiveFields: ["iban"], scrubIPAddresses: true }),
  },
  "issue 18 data scrubbing: change the project's advanced rules": {
    permission: "project:update",
    run: (c, w) => updateProject(c, w.org, w.project, { relayPiiConfig: '{"applications":{"$string":["@ip:replace"]}}' }),
  },
  "issue 18 data scrubbing: change the organization's settings": {
    permission: "org:update",
    run: (c, w) => updateOrganizationScrubbing(c, w.org, { dataScrubber: true }),
  },
  "issue 18 data scrubbing: preview a rule on the project's newest event": {
    permission: "project:update",
    run: async (c, w) => previewScrubbing(c, w.org, (await getProject(c, w.org, w.project)).project, '{"applications":{"$string":["@email:replace"]}}'),
  },
  "issue 19 cron monitors: create a monitor": {
    permission: "monitor:write",
    run: (c, w) => createMonitor(c, w.org, { name: uniq("Job"), project: w.project, config: { schedule_type: "crontab", schedule: "0 * * * *" } }),
  },
  "issue 19 cron monitors: edit a monitor's schedule": {
    permission: "monitor:write",
    run: (c, w) => updateMonitor(c, w.org, "nightly", { config: { schedule: "*/5 * * * *" } }),
  },
  "issue 19 cron monitors: mute a monitor": { permission: "monitor:write", run: (c, w) => setMonitorMuted(c, w.org, "nightly", true) },
  "issue 19 cron monitors: delete a monitor": { permission: "monitor:write", run: (c, w) => deleteMonitor(c, w.org, "nightly") },
  "issue 19 cron monitors: send a check-in through the API": {
    permission: "issue:update",
    run: (c, w) => sendApiCheckIn(c, w.org, "nightly", { status: "ok" }, async () => ({ ok: true, eventId: null }), "127.0.0.1"),
  },
  "issue 19 feedback: resolve or mark as spam": { permission: "issue:update", run: (c, w) => setFeedbackStatus(c, w.org, w.feedbackId, { status: "spam" }) },
  "issue 19 feedback: assign to a member": { permission: "issue:update", run: (c, w) => assignFeedback(c, w.org, w.feedbackId, w.targetUserId) },
  "issue 19 attachments: download an event's attachment (the project's attachments role, member by default)": {
    permission: "attachment:download",
    run: (c, w) => downloadEventAttachment(c, w.org, w.project, w.eventId, w.attachmentId),
  },
  "issue 19 attachments: choose who may download attachments": {
    permission: "project:update",
    run: (c, w) => updateProject(c, w.org, w.project, { attachmentsRole: "admin" }),
  },
  "issue 19 attachments: set the organization's attachment quota": {
    permission: "org:update",
    run: (c, w) => updateOrganizationQuotas(c, w.org, { quotas: { attachment: { window: 86400, count: 1_000_000 } } }),
  },
  "issue 19 feedback: submit a user report with a token": {
    permission: "issue:update",
    run: (c, w) => submitUserFeedback(c.store, { ctx: c }, w.org, w.project, { event_id: w.eventId, name: "A", email: "a@example.com", comments: "broken" }),
  },
};

/** Cron monitors every role may read (monitor:read, as Sentry's event:read). */
const MONITOR_READS: Record<string, (c: CoreContext, w: World) => Promise<unknown>> = {
  "list cron monitors": (c, w) => listMonitors(c, w.org),
  "see a cron monitor and its check-ins": (c, w) => getMonitor(c, w.org, "nightly"),
};

/** Reads every role may do (alert:read, event:read). */
const READS: Record<string, (c: CoreContext, w: World) => Promise<unknown>> = {
  "list alert rules": (c, w) => listAlertRules(c, w.org, w.project),
  "see an alert rule's history": (c, w) => alertRuleHistory(c, w.org, w.project, w.ruleId),
  "issue 19 feedback: list the inbox": (c, w) => listFeedbackInbox(c, w.org, { status: "all" }),
  "issue 19 feedback: open one": (c, w) => getFeedbackView(c, w.org, w.feedbackId),
  "issue 19 feedback: see an issue's feedback": (c, w) => listIssueFeedback(c, w.issueId),
  "issue 19 attachments: list an event's attachments": (c, w) => listEventAttachments(c, w.org, w.project, w.eventId),
  "issue 19 attachments: see one attachment's details": (c, w) => getEventAttachment(c, w.org, w.project, w.eventId, w.attachmentId),
  "issue 19 logs: read a project's logs (page and API)": (c, w) => listProjectLogs(c, w.org, w.project, { query: "level:error checkout" }),
  "issue 19 logs: follow a project's logs live": (c, w) => tailProjectLogs(c, w.org, w.project, {}, 0),
  "issue 19 logs: read a trace's logs": (c, w) => listTraceLogs(c, w.org, "5b8efff798038103d269b633813fc60c"),
};

const issueEvent = (projectId: number): DigestedEvent => ({
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

let t: TestCore;

/** Marks the acting person as enrolled in two-factor sign-in (as better-auth does once they confirm a first code). */
async function withTwoFactor(c: CoreContext): Promise<void> {
  if ("orgToken" in c.actor) return;
  await t.db.kysely
    .updateTable("users")
    .set({ two_factor_enabled: t.db.dialect === "sqlite" ? 1 : true })
    .where("id", "=", c.actor.user.id)
    .execute();
}
/** Links the acting person to the SSO provider (as better-auth does at their first single sign-on). */
async function withSsoAccount(c: CoreContext): Promise<void> {
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
before(async () => {
  t = await testCore();
});
after(async () => {
  await t.close();
});

async function user(isSuperuser = false): Promise<User> {
  return t.accounts.createUser({ email: `${uniq("u")}@example.com`, password: "password123", name: "Test", isSuperuser });
}

/** A fresh organization with an owner, a project, a team, a plain member to act upon, and an account outside it. */
async function world(): Promise<{ w: World; owner: User }> {
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

describe("permission matrix (each role × each mutation)", () => {
  for (const role of ROLES) {
    for (const [name, m] of Object.entries(MUTATIONS)) {
      const allowed = (PERMISSIONS[m.permission] as readonly Role[]).includes(role);
      test(`${role} ${allowed ? "may" : "may not"} ${name}`, async () => {
        const { w, owner } = await world();
        const actor = role === "owner" ? owner : await user();
        if (role !== "owner") await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
        assert.equal(await outcome(() => m.run(t.as(actor), w)), allowed ? "ok" : "forbidden");
      });
    }
  }
});

describe("issue 19 cron monitors: every role reads them; another organization's monitor is not found", () => {
  for (const role of ROLES) {
    test(`${role} may read cron monitors`, async () => {
      const { w, owner } = await world();
      const actor = role === "owner" ? owner : await user();
      if (role !== "owner") await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
      for (const [name, read] of Object.entries(MONITOR_READS)) assert.equal(await outcome(() => read(t.as(actor), w)), "ok", name);
    });
  }
  test("an outsider finds no monitor, and a slug of another organization names nothing", async () => {
    const { w } = await world();
    const other = await world();
    assert.equal(await outcome(() => getMonitor(t.as(other.owner), w.org, "nightly")), "not_found");
    assert.equal(await outcome(() => setMonitorMuted(t.as(other.owner), w.org, "nightly", true)), "not_found");
    assert.equal(await outcome(() => getMonitor(t.as(other.owner), other.w.org, "missing")), "not_found");
  });
});

describe("issue 19 attachments: the project's attachments role decides downloads; listing is every role's", () => {
  for (const [setting, allowedRoles] of [
    ["admin", ["owner", "admin"]],
    ["viewer", ["owner", "admin", "member", "viewer"]],
    ["owner", ["owner"]],
  ] as const) {
    for (const role of ROLES) {
      const may = (allowedRoles as readonly string[]).includes(role);
      test(`with the attachments role ${setting}, ${role} ${may ? "may" : "may not"} download`, async () => {
        const { w, owner } = await world();
        await updateProject(t.as(owner), w.org, w.project, { attachmentsRole: setting });
        const actor = role === "owner" ? owner : await user();
        if (role !== "owner") await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
        assert.equal(await outcome(() => downloadEventAttachment(t.as(actor), w.org, w.project, w.eventId, w.attachmentId)), may ? "ok" : "forbidden");
        const listed = await listEventAttachments(t.as(actor), w.org, w.project, w.eventId);
        assert.equal(listed.attachments.length, 1, "the list is shown to every role");
        assert.equal(listed.canDownload, may);
      });
    }
  }
  test("a superuser downloads, an organization token never does, another organization's attachment is not found", async () => {
    const { w, owner } = await world();
    const admin = await user(true);
    assert.equal((await downloadEventAttachment(t.as(admin), w.org, w.project, w.eventId, w.attachmentId)).body.toString(), "screenshot bytes");
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const tokenActor = await authenticateOrgToken(t.store, plaintext);
    assert.ok(tokenActor);
    assert.equal(await outcome(() => downloadEventAttachment({ store: t.store, actor: tokenActor }, w.org, w.project, w.eventId, w.attachmentId)), "forbidden");
    const other = await world();
    assert.equal(await outcome(() => downloadEventAttachment(t.as(other.owner), w.org, w.project, w.eventId, w.attachmentId)), "not_found");
    assert.equal(await outcome(() => downloadEventAttachment(t.as(owner), w.org, w.project, w.eventId, "999999999")), "not_found");
    assert.equal(await outcome(() => downloadEventAttachment(t.as(owner), w.org, w.project, "../../etc", w.attachmentId)), "not_found");
  });
});

describe("issue 17 rules: alert rules in the matrix", () => {
  for (const role of ROLES) {
    test(`${role} may read alert rules`, async () => {
      const { w, owner } = await world();
      const actor = role === "owner" ? owner : await user();
      if (role !== "owner") await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
      for (const [name, read] of Object.entries(READS)) assert.equal(await outcome(() => read(t.as(actor), w)), "ok", name);
    });
  }

  test("with 'Let members create alerts' on, members may write alert rules too; viewers still may not", async () => {
    const { w, owner } = await world();
    await setAlertsMemberWrite(t.as(owner), w.org, { alertsMemberWrite: true });
    for (const [role, expected] of [
      ["member", "ok"],
      ["viewer", "forbidden"],
    ] as const) {
      const actor = await user();
      await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
      for (const name of ["create alert rule", "change alert rule", "send a test notification"])
        assert.equal(await outcome(() => MUTATIONS[name]!.run(t.as(actor), w)), expected, `${role} ${name}`);
    }
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const token = (await authenticateOrgToken(t.store, plaintext))!;
    assert.equal(await outcome(() => createAlertRule({ store: t.store, actor: token }, w.org, w.project, RULE)), "forbidden", "an organization token never");
  });
});

describe("issue 20: an organization requiring two-factor refuses every role without it, for every read and mutation", () => {
  for (const role of ROLES) {
    test(`a ${role} without two-factor is refused with the reason; with it, the matrix applies again`, async () => {
      const { w, owner } = await world();
      const actor = await user();
      await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
      await withTwoFactor(t.as(owner));
      await setRequireTwoFactor(t.as(owner), w.org, { requireTwoFactor: true });
      const reads = [
        () => getOrganization(t.as(actor), w.org),
        () => getProject(t.as(actor), w.org, w.project),
        () => listKeys(t.as(actor), w.org, w.project),
        ...Object.values(READS).map((r) => () => r(t.as(actor), w)),
      ];
      for (const attempt of [
        ...reads,
        ...Object.values(MUTATIONS)
          .filter((m) => m.permission !== "org:security")
          .map((m) => () => m.run(t.as(actor), w)),
      ]) {
        const err = await attempt().then(
          () => null,
          (x: unknown) => x,
        );
        assert.ok(isTwoFactorRequired(err), `refused for two-factor: ${String(err)}`);
      }
      await withTwoFactor(t.as(actor));
      assert.equal(await outcome(() => getOrganization(t.as(actor), w.org)), "ok");
    });
  }
  test("an organization token is no person: two-factor does not apply to it", async () => {
    const { w, owner } = await world();
    await withTwoFactor(t.as(owner));
    await setRequireTwoFactor(t.as(owner), w.org, { requireTwoFactor: true });
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const token = (await authenticateOrgToken(t.store, plaintext))!;
    assert.equal(await outcome(() => getProject({ store: t.store, actor: token }, w.org, w.project)), "ok");
  });
  test("a superuser who is not a member is held to the organization's requirement too", async () => {
    const { w, owner } = await world();
    await withTwoFactor(t.as(owner));
    await setRequireTwoFactor(t.as(owner), w.org, { requireTwoFactor: true });
    const su = await user(true);
    assert.ok(
      isTwoFactorRequired(
        await getOrganization(t.as(su), w.org).then(
          () => null,
          (x: unknown) => x,
        ),
      ),
    );
  });
});

describe("another organization's objects are not found, whatever the role", () => {
  for (const role of ROLES) {
    test(`${role} of another organization gets not_found for every read and mutation`, async () => {
      const { w } = await world();
      const { w: mine, owner: myOwner } = await world();
      const actor = role === "owner" ? myOwner : await user();
      if (role !== "owner") await joinByInvitation(t, t.as(myOwner), mine.org, { email: actor.email, role });
      assert.equal(await outcome(() => getOrganization(t.as(actor), w.org)), "not_found");
      assert.equal(await outcome(() => getProject(t.as(actor), w.org, w.project)), "not_found");
      assert.equal(await outcome(() => listKeys(t.as(actor), w.org, w.project)), "not_found");
      for (const [name, m] of Object.entries(MUTATIONS)) {
        assert.equal(await outcome(() => m.run(t.as(actor), w)), "not_found", name);
      }
    });
  }

  test("an install superuser who is not a member may act on any organization", async () => {
    const { w } = await world();
    const su = await user(true);
    assert.equal(await outcome(() => updateProject(t.as(su), w.org, w.project, { name: "By superuser" })), "ok");
  });
});

describe("issue 19 logs: event:read, checked in the core for the page, the live tail and the API", () => {
  test("another organization's member, an organization token (org:ci, no event:read) and a bad search are refused", async () => {
    const { w, owner } = await world();
    const other = await world();
    assert.equal(await outcome(() => listProjectLogs(t.as(other.owner), w.org, w.project, {})), "not_found");
    assert.equal(await outcome(() => tailProjectLogs(t.as(other.owner), w.org, w.project, {}, 0)), "not_found");
    assert.equal(await outcome(() => listTraceLogs(t.as(other.owner), w.org, "5b8efff798038103d269b633813fc60c")), "not_found");
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const token = (await authenticateOrgToken(t.store, plaintext))!;
    assert.equal(await outcome(() => listProjectLogs({ store: t.store, actor: token }, w.org, w.project, {})), "forbidden");
    assert.equal(await outcome(() => listProjectLogs(t.as(owner), w.org, w.project, { level: "loud" })), "bad_request");
  });
});

describe("an organization token (org:ci) × each mutation", () => {
  const granted = ORG_TOKEN_SCOPES["org:ci"] as readonly Permission[];
  for (const [name, m] of Object.entries(MUTATIONS)) {
    const allowed = granted.includes(m.permission);
    test(`an organization token ${allowed ? "may" : "may not"} ${name}; another organization's token finds nothing`, async () => {
      const { w, owner } = await world();
      const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
      const actor = (await authenticateOrgToken(t.store, plaintext))!;
      assert.equal(await outcome(() => m.run({ store: t.store, actor }, w)), allowed ? "ok" : "forbidden");
      const { w: other } = await world();
      assert.equal(await outcome(() => m.run({ store: t.store, actor }, other)), "not_found");
    });
  }
});

describe("accounts are made by superusers only (instance settings)", () => {
  for (const role of ROLES) {
    test(`hostile input #12: an organization's ${role} may neither create an account nor list the install's accounts`, async () => {
      const { w, owner } = await world();
      const actor = role === "owner" ? owner : await user();
      if (role !== "owner") await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
      const email = `${uniq("made")}@example.com`;
      assert.equal(await outcome(() => createAccount(t.as(actor), t.accounts, { email, password: "password123" })), "forbidden");
      assert.equal(await outcome(() => listAccounts(t.as(actor), { limit: 10 })), "forbidden");
      assert.equal(await t.store.getUserByEmail(email), null);
    });
  }

  test("only a superuser sees the instance's disk usage: owners, members and tokens are refused before anything is measured", async () => {
    const { w, owner } = await world();
    let measured = 0;
    const probe: DiskProbe = {
      measure: async () => {
        measured++;
        return { dialect: "sqlite", bytes: { database: 1, artifacts: 0, spool: 0, attachments: 0, other: 0 }, freeBytes: 10, totalBytes: 20 };
      },
      record: () => [],
      samples: () => [],
      growth: () => ({ bytesPerDay: null, daysLeft: null, samples: 0 }),
    };
    assert.equal(await outcome(() => instanceDiskUsage(t.as(owner), probe)), "forbidden");
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const token = (await authenticateOrgToken(t.store, plaintext))!;
    assert.equal(await outcome(() => instanceDiskUsage({ store: t.store, actor: token }, probe)), "forbidden");
    assert.equal(measured, 0);
    const su = await user(true);
    assert.equal(await outcome(() => instanceDiskUsage(t.as(su), probe)), "ok");
    assert.equal(measured, 1);
  });

  test("an organization token may neither create an account nor list accounts", async () => {
    const { w, owner } = await world();
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const actor = (await authenticateOrgToken(t.store, plaintext))!;
    assert.equal(
      await outcome(() => createAccount({ store: t.store, actor }, t.accounts, { email: `${uniq("made")}@example.com`, password: "password123" })),
      "forbidden",
    );
    assert.equal(await outcome(() => listAccounts({ store: t.store, actor }, { limit: 10 })), "forbidden");
  });

  test("a superuser creates accounts, superusers too, and lists them by e-mail; a taken address is refused", async () => {
    const su = await user(true);
    const email = `${uniq("aa-made")}@example.com`;
    const made = await createAccount(t.as(su), t.accounts, { email, password: "password123", name: "Made", isSuperuser: true });
    assert.deepEqual([made.email, made.name, made.isSuperuser], [email, "Made", true]);
    assert.equal(await outcome(() => createAccount(t.as(su), t.accounts, { email: email.toUpperCase(), password: "password123" })), "conflict");
    const first = await listAccounts(t.as(su), { limit: 1 });
    assert.equal(first.items.length, 1);
    // Every page to the end: this file's other tests make well over a thousand accounts.
    const all = first.items.map((u) => u.email);
    for (let cursor = first.nextCursor; cursor; ) {
      const page = await listAccounts(t.as(su), { limit: 500, cursor });
      all.push(...page.items.map((u) => u.email));
      cursor = page.nextCursor;
    }
    const outOfOrder = all.findIndex((e, i) => i > 0 && all[i - 1]! >= e);
    assert.equal(outOfOrder, -1, `accounts listed by e-mail, each once: ${all.slice(outOfOrder - 1, outOfOrder + 1).join(" before ")}`);
    assert.equal(all.includes(email), true, "the new account is listed");
    assert.equal(all.includes(su.email), true, "the superuser is listed");
  });
});

describe("owner safeguards", () => {
  test("an admin cannot promote anyone to owner, an owner can", async () => {
    const { w, owner } = await world();
    const admin = await user();
    await joinByInvitation(t, t.as(owner), w.org, { email: admin.email, role: "admin" });
    assert.equal(await outcome(() => updateMemberRole(t.as(admin), w.org, w.targetMemberId, { role: "owner" })), "forbidden");
    assert.equal(await outcome(() => updateMemberRole(t.as(owner), w.org, w.targetMemberId, { role: "owner" })), "ok");
  });

  test("the last owner can neither leave nor be demoted", async () => {
    const { w, owner } = await world();
    const me = await t.store.getMembership((await t.store.getOrganizationBySlug(w.org))!.id, owner.id);
    assert.equal(await outcome(() => removeMember(t.as(owner), w.org, me!.id)), "conflict");
    assert.equal(await outcome(() => updateMemberRole(t.as(owner), w.org, me!.id, { role: "admin" })), "conflict");
  });

  test("any member may leave on their own", async () => {
    const { w, owner } = await world();
    const viewer = await user();
    const m = await joinByInvitation(t, t.as(owner), w.org, { email: viewer.email, role: "viewer" });
    assert.equal(await outcome(() => removeMember(t.as(viewer), w.org, m.id)), "ok");
  });
});
