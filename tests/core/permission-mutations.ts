// The permission matrix's rows: every mutation (with the permission it needs) and every read, as the server actions
// and the API routes call them through the core (permissions.test.ts runs them for every role).
import { listAuditLog } from "../../src/core/audit";
import { createInvitation } from "../../src/core/invitations";
import { removeMember, updateMemberRole } from "../../src/core/members";
import { deleteOrganization, updateOrganization } from "../../src/core/organizations";
import { type Permission } from "../../src/core/permissions";
import { createOrgToken, revokeOrgToken } from "../../src/core/org-tokens";
import type { CoreContext } from "../../src/core/context";
import { createProject, deleteProject, getProject, updateProject } from "../../src/core/projects";
import { createKey, deleteKey, updateKey } from "../../src/core/keys";
import { createMetricAlert } from "../../src/core/metric-alerts";
import { createTeam, deleteTeam, setTeamMembership } from "../../src/core/teams";
import { deleteIssue, updateIssue, updateOrgIssues } from "../../src/core/issues";
import { addComment, deleteComment } from "../../src/core/issue-comments";
import { createRelease, deleteRelease, updateRelease } from "../../src/core/releases";
import { chunkUploadOptions, sha1Hex, uploadChunks } from "../../src/core/uploads";
import { assembleArtifactBundle } from "../../src/core/artifact-assemble";
import { uploadReleaseFile } from "../../src/core/release-files";
import {
  alertRuleHistory,
  createAlertRule,
  deleteAlertRule,
  listAlertRules,
  sendTestNotification,
  setAlertsMemberWrite,
  updateAlertRule,
} from "../../src/core/alert-rules";
import { erasePersonData, exportPersonData, findPersonEvents, listErasures } from "../../src/core/personal-data";
import { previewScrubbing, updateOrganizationScrubbing } from "../../src/core/data-scrubbing";
import { sendApiCheckIn } from "../../src/core/monitor-checkins";
import { createMonitor, deleteMonitor, getMonitor, listMonitors, setMonitorMuted, updateMonitor } from "../../src/core/monitors";
import { assignFeedback, getFeedbackView, listFeedbackInbox, listIssueFeedback, setFeedbackStatus } from "../../src/core/feedback";
import { submitUserFeedback } from "../../src/core/feedback-submit";
import { downloadEventAttachment, getEventAttachment, listEventAttachments } from "../../src/core/attachments";
import { updateOrganizationQuotas } from "../../src/core/organization-quotas";
import { listProjectLogs, listTraceLogs, tailProjectLogs } from "../../src/core/logs";
import { setRequireTwoFactor } from "../../src/core/two-factor";
import { uniq } from "../helpers/core";
import { getOrgSsoSettings, setOrgSsoSettings } from "../../src/core/sso";
import { CHUNK, RULE, withTwoFactor, type World, withSsoAccount } from "./permission-world";

export const MUTATIONS: Record<string, { permission: Permission; run: (c: CoreContext, w: World) => Promise<unknown> }> = {
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
export const MONITOR_READS: Record<string, (c: CoreContext, w: World) => Promise<unknown>> = {
  "list cron monitors": (c, w) => listMonitors(c, w.org),
  "see a cron monitor and its check-ins": (c, w) => getMonitor(c, w.org, "nightly"),
};

/** Reads every role may do (alert:read, event:read). */
export const READS: Record<string, (c: CoreContext, w: World) => Promise<unknown>> = {
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
