// The permission matrix, checked as a matrix: every role against every mutation, through the core services that
// the server actions and the API routes call; and another organization's objects answer not_found whatever the role.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createInvitation } from "../../src/core/invitations";
import { addMember, removeMember, updateMemberRole } from "../../src/core/members";
import { deleteOrganization, getOrganization, updateOrganization } from "../../src/core/organizations";
import { PERMISSIONS, type Permission } from "../../src/core/permissions";
import { createProject, deleteProject, getProject, updateProject } from "../../src/core/projects";
import { createKey, deleteKey, listKeys, updateKey } from "../../src/core/keys";
import { createTeam, deleteTeam, setTeamMembership } from "../../src/core/teams";
import { deleteIssue, updateIssue, updateOrgIssues } from "../../src/core/issues";
import { addComment, deleteComment } from "../../src/core/issue-comments";
import { createRelease, deleteRelease, updateRelease } from "../../src/core/releases";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import { ROLES, type Role } from "../../src/core/roles";
import { createOrganization } from "../../src/core/organizations";
import type { User } from "../../src/storage/ports";
import { outcome, type TestCore, testCore, uniq } from "../helpers/core";

type World = { org: string; project: string; team: string; key: string; targetMemberId: number; issueId: number; commentId: number };

/** Each mutation: the permission it needs and how to attempt it in a fresh world. */
const MUTATIONS: Record<string, { permission: Permission; run: (t: TestCore, user: User, w: World) => Promise<unknown> }> = {
  "update organization": { permission: "org:update", run: (t, u, w) => updateOrganization(t.as(u), w.org, { name: "Renamed" }) },
  "delete organization": { permission: "org:delete", run: (t, u, w) => deleteOrganization(t.as(u), w.org) },
  "add member": { permission: "member:add", run: (t, u, w) => addMember({ ...t.as(u), accounts: t.accounts }, w.org, { email: `${uniq("new")}@example.com`, role: "member", password: "password123" }) },
  "invite by link": { permission: "member:add", run: (t, u, w) => createInvitation(t.as(u), w.org, { role: "member" }) },
  "change member role": { permission: "member:update", run: (t, u, w) => updateMemberRole(t.as(u), w.org, w.targetMemberId, { role: "admin" }) },
  "remove member": { permission: "member:remove", run: (t, u, w) => removeMember(t.as(u), w.org, w.targetMemberId) },
  "create team": { permission: "team:create", run: (t, u, w) => createTeam(t.as(u), w.org, { slug: uniq("team") }) },
  "delete team": { permission: "team:delete", run: (t, u, w) => deleteTeam(t.as(u), w.org, w.team) },
  "join team": { permission: "team:join", run: (t, u, w) => setTeamMembership(t.as(u), w.org, w.team, true) },
  "create project": { permission: "project:create", run: (t, u, w) => createProject(t.as(u), w.org, { name: uniq("Project") }) },
  "update project": { permission: "project:update", run: (t, u, w) => updateProject(t.as(u), w.org, w.project, { name: "Renamed" }) },
  "delete project": { permission: "project:delete", run: (t, u, w) => deleteProject(t.as(u), w.org, w.project) },
  "create key": { permission: "key:create", run: (t, u, w) => createKey(t.as(u), w.org, w.project, { label: "CI" }) },
  "rename or disable key": { permission: "key:update", run: (t, u, w) => updateKey(t.as(u), w.org, w.project, w.key, { isActive: false }) },
  "revoke key": { permission: "key:delete", run: (t, u, w) => deleteKey(t.as(u), w.org, w.project, w.key) },
  "resolve issue": { permission: "issue:update", run: (t, u, w) => updateIssue(t.as(u), w.issueId, { status: "resolved" }) },
  "bulk-resolve issues of the organization": { permission: "issue:update", run: (t, u, w) => updateOrgIssues(t.as(u), w.org, [String(w.issueId)], { status: "resolved" }) },
  "delete issue": { permission: "issue:delete", run: (t, u, w) => deleteIssue(t.as(u), w.issueId) },
  "assign issue": { permission: "issue:update", run: (t, u, w) => updateIssue(t.as(u), w.issueId, { assignedTo: `user:${u.id}` }) },
  "comment on issue": { permission: "issue:comment", run: (t, u, w) => addComment(t.as(u), w.issueId, { text: "Looking into it" }) },
  "delete another's comment": { permission: "comment:moderate", run: (t, u, w) => deleteComment(t.as(u), w.issueId, w.commentId) },
  "create release": { permission: "release:write", run: (t, u, w) => createRelease(t.as(u), w.org, null, { version: uniq("v"), projects: [w.project] }) },
  "finalize release": { permission: "release:write", run: (t, u, w) => updateRelease(t.as(u), w.org, w.project, "app@1.0.0", { dateReleased: new Date().toISOString() }) },
  "delete release": { permission: "release:delete", run: (t, u, w) => deleteRelease(t.as(u), w.org, "app@1.0.0") },
};

const issueEvent = (projectId: number): DigestedEvent => ({
  projectId, eventId: crypto.randomUUID().replace(/-/g, ""), type: "error", receivedAt: new Date().toISOString(), timestamp: new Date().toISOString(),
  platform: "python", level: "error", title: "E: x", message: "", culprit: "", release: null, environment: null, size: 2, data: "{}", category: "error",
  grouping: { config: "c", hashes: ["h"] }, metadata: "{}", userKey: null, tags: [],
});

let t: TestCore;
before(async () => {
  t = await testCore();
});
after(async () => {
  await t.close();
});

async function user(isSuperuser = false): Promise<User> {
  return t.accounts.createUser({ email: `${uniq("u")}@example.com`, password: "password123", name: "Test", isSuperuser });
}

/** A fresh organization with an owner, a project, a team, and a plain member to act upon. */
async function world(): Promise<{ w: World; owner: User }> {
  const owner = await user();
  const ctx = t.as(owner);
  const org = await createOrganization(ctx, { name: uniq("Org") });
  const team = await createTeam(ctx, org.slug, { slug: uniq("team") });
  const project = await createProject(ctx, org.slug, { name: uniq("Project"), platform: "python" });
  const { keys } = await listKeys(ctx, org.slug, project.slug);
  const p = (await t.store.getProjectBySlug((await t.store.getOrganizationBySlug(org.slug))!.id, project.slug))!;
  await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events: [issueEvent(p.id)] });
  const issueId = (await t.store.listIssues(p.id, { page: { limit: 1 } })).items[0]!.id;
  await t.store.upsertRelease({ organizationId: p.organizationId, version: "app@1.0.0", projectIds: [p.id], createdAt: new Date().toISOString() });
  const target = await addMember({ ...ctx, accounts: t.accounts }, org.slug, { email: `${uniq("target")}@example.com`, role: "member", password: "password123" });
  const comment = await t.store.addIssueActivity(issueId, { type: "note", userId: target.userId, data: JSON.stringify({ text: "by the target" }), createdAt: new Date().toISOString() });
  return { w: { org: org.slug, project: project.slug, team: team.slug, key: keys[0]!.publicKey, targetMemberId: target.id, issueId, commentId: comment.id }, owner };
}

describe("permission matrix (each role × each mutation)", () => {
  for (const role of ROLES) {
    for (const [name, m] of Object.entries(MUTATIONS)) {
      const allowed = (PERMISSIONS[m.permission] as readonly Role[]).includes(role);
      test(`${role} ${allowed ? "may" : "may not"} ${name}`, async () => {
        const { w, owner } = await world();
        const actor = role === "owner" ? owner : await user();
        if (role !== "owner") await addMember({ ...t.as(owner), accounts: t.accounts }, w.org, { email: actor.email, role });
        assert.equal(await outcome(() => m.run(t, actor, w)), allowed ? "ok" : "forbidden");
      });
    }
  }
});

describe("another organization's objects are not found, whatever the role", () => {
  for (const role of ROLES) {
    test(`${role} of another organization gets not_found for every read and mutation`, async () => {
      const { w } = await world();
      const { w: mine, owner: myOwner } = await world();
      const actor = role === "owner" ? myOwner : await user();
      if (role !== "owner") await addMember({ ...t.as(myOwner), accounts: t.accounts }, mine.org, { email: actor.email, role });
      assert.equal(await outcome(() => getOrganization(t.as(actor), w.org)), "not_found");
      assert.equal(await outcome(() => getProject(t.as(actor), w.org, w.project)), "not_found");
      assert.equal(await outcome(() => listKeys(t.as(actor), w.org, w.project)), "not_found");
      for (const [name, m] of Object.entries(MUTATIONS)) {
        assert.equal(await outcome(() => m.run(t, actor, w)), "not_found", name);
      }
    });
  }

  test("an install superuser who is not a member may act on any organization", async () => {
    const { w } = await world();
    const su = await user(true);
    assert.equal(await outcome(() => updateProject(t.as(su), w.org, w.project, { name: "By superuser" })), "ok");
  });
});

describe("owner safeguards", () => {
  test("an admin cannot promote anyone to owner, an owner can", async () => {
    const { w, owner } = await world();
    const admin = await user();
    await addMember({ ...t.as(owner), accounts: t.accounts }, w.org, { email: admin.email, role: "admin" });
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
    const m = await addMember({ ...t.as(owner), accounts: t.accounts }, w.org, { email: viewer.email, role: "viewer" });
    assert.equal(await outcome(() => removeMember(t.as(viewer), w.org, m.id)), "ok");
  });
});
