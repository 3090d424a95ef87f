// "Who will be notified" on the issue page (issue 17, "People"): the people the project's active issue alert rules
// would e-mail about the issue, expanded as the sender expands e-mail actions (notify/recipients.ts), and only those
// with e-mail on for the project.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import { createAlertRule, deleteAlertRule, listAlertRules } from "../../src/core/alert-rules";
import { issueNotifyList } from "../../src/core/issue-subscriptions";
import { getIssue } from "../../src/core/issues";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { createTeam } from "../../src/core/teams";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import { joinByInvitation, type TestCore, testCore, uniq } from "../helpers/core";

let t: TestCore;
before(async () => (t = await testCore()));
after(async () => t.close());

const event = (projectId: number): DigestedEvent => ({
  projectId,
  eventId: randomBytes(16).toString("hex"),
  type: "error",
  receivedAt: "2026-11-23T10:00:00.000Z",
  timestamp: "2026-11-23T10:00:00.000Z",
  platform: "python",
  level: "error",
  title: "E notify",
  message: "",
  culprit: "",
  release: null,
  environment: null,
  size: 2,
  data: "{}",
  category: "error",
  grouping: { config: "c", hashes: [randomBytes(8).toString("hex")] },
  metadata: "{}",
  userKey: null,
  tags: [],
});

test("issue 17 people: who will be notified follows the project's alert rules' e-mail actions and the people's e-mail settings", async () => {
  const ownerUser = await t.accounts.createUser({ email: `${uniq("owner")}@example.com`, password: "password123", name: "Owner" });
  const owner = t.as(ownerUser);
  const org = await createOrganization(owner, { name: uniq("Org") });
  const bob = await t.accounts.createUser({ email: `${uniq("bob")}@example.com`, password: "password123", name: "Bob" });
  const bobMember = await joinByInvitation(t, owner, org.slug, { email: bob.email, role: "member" });
  const team = await createTeam(owner, org.slug, { slug: uniq("team") });
  await t.store.addTeamMember((await t.store.getTeamBySlug((await t.store.getOrganizationBySlug(org.slug))!.id, team.slug))!.id, bobMember.id);
  const created = await createProject(owner, org.slug, { name: uniq("Project"), team: team.slug });
  const project = (await t.store.getProjectBySlug((await t.store.getOrganizationBySlug(org.slug))!.id, created.slug))!;
  await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events: [event(project.id)] });
  const issue = (await t.store.listIssues(project.id, { page: { limit: 10 } })).items[0]!;
  const emails = async () => (await issueNotifyList(owner, await getIssue(owner, issue.id))).alerts.map((r) => r.email).sort();

  // The default rule: a new issue → e-mail the issue's owners, falling through to the project's team (its creator and Bob).
  assert.deepEqual(await emails(), [bob.email, ownerUser.email].sort());
  // Bob turns off e-mail from the project: only the owner is left.
  await t.store.setProjectEmail(bob.id, project.id, false);
  assert.deepEqual(await emails(), [ownerUser.email]);
  await t.store.setProjectEmail(bob.id, project.id, true);
  // Instead of the default rule, one that e-mails Bob alone.
  for (const r of (await listAlertRules(owner, org.slug, project.slug)).rules) await deleteAlertRule(owner, org.slug, project.slug, r.id);
  await createAlertRule(owner, org.slug, project.slug, {
    name: "Bob",
    actionMatch: "any",
    filterMatch: "all",
    frequency: 30,
    conditions: [{ id: "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition" }],
    filters: [],
    actions: [{ id: "sentry.mail.actions.NotifyEmailAction", targetType: "Member", targetIdentifier: bob.id }],
  });
  assert.deepEqual(await emails(), [bob.email]);
  // Without rules, nobody.
  for (const r of (await listAlertRules(owner, org.slug, project.slug)).rules) await deleteAlertRule(owner, org.slug, project.slug, r.id);
  assert.deepEqual(await emails(), []);
});
