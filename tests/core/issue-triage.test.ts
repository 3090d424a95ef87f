// Triage through the core services, on SQLite: who an issue may be assigned to and what that records, the assignee
// search, comments (who may edit and delete), tags, and events by id with their neighbours.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { addComment, deleteComment, listComments, updateComment } from "../../src/core/issue-comments";
import { getIssueEvent, getIssueTag, getProjectEvent, listIssueTagValues } from "../../src/core/issue-details";
import { listProjectIssues, updateIssue, updateProjectIssues } from "../../src/core/issues";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { createTeam, setTeamMembership } from "../../src/core/teams";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { Role } from "../../src/core/roles";
import type { User } from "../../src/storage/ports";
import { joinByInvitation, outcome as code, type TestCore, testCore, uniq } from "../helpers/core";

let t: TestCore;
before(async () => {
  t = await testCore();
});
after(() => t.close());

let n = 0;
const event = (projectId: number, hash: string, over: Partial<DigestedEvent> = {}): DigestedEvent => ({
  projectId,
  eventId: (++n).toString(16).padStart(32, "a"),
  type: "error",
  receivedAt: "2026-11-23T10:00:00.000Z",
  timestamp: "2026-11-23T10:00:00.000Z",
  platform: "python",
  level: "error",
  title: `E ${hash}`,
  message: "",
  culprit: "",
  release: null,
  environment: null,
  size: 2,
  data: "{}",
  category: "error",
  grouping: { config: "c", hashes: [hash] },
  metadata: "{}",
  userKey: null,
  tags: [],
  ...over,
});

/** An organization with an owner, a project owned by a team, two issues, and a user per role. */
async function world() {
  const mk = () => t.accounts.createUser({ email: `${uniq("u")}@example.com`, password: "password123", name: "U" });
  const owner = await mk();
  const ctx = t.as(owner);
  const org = await createOrganization(ctx, { name: uniq("Org") });
  const team = await createTeam(ctx, org.slug, { slug: uniq("team") });
  const otherTeam = await createTeam(ctx, org.slug, { slug: uniq("team") });
  const created = await createProject(ctx, org.slug, { name: uniq("Project"), team: team.slug });
  const project = (await t.store.getProjectBySlug((await t.store.getOrganizationBySlug(org.slug))!.id, created.slug))!;
  const users: Record<Role, User> = { owner, admin: await mk(), member: await mk(), viewer: await mk() };
  for (const role of ["admin", "member", "viewer"] as const) await joinByInvitation(t, ctx, org.slug, { email: users[role].email, role });
  const events = [
    event(project.id, "one", { tags: [["browser", "Chrome"]] }),
    event(project.id, "one", { tags: [["browser", "Firefox"]] }),
    event(project.id, "one", { tags: [["browser", "Chrome"]] }),
    event(project.id, "two"),
  ];
  await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events });
  const issues = (await t.store.listIssues(project.id, { page: { limit: 10 } })).items;
  const one = issues.find((i) => i.title === "E one")!;
  const two = issues.find((i) => i.title === "E two")!;
  return { org: org.slug, project, team, otherTeam, users, one, two, events, as: (role: Role) => t.as(users[role]) };
}

describe("assignment", () => {
  test("members of the organization and the project's team may be assignees; anyone else is a 400 that changes nothing", async () => {
    const w = await world();
    const stranger = await t.accounts.createUser({ email: `${uniq("s")}@example.com`, password: "password123", name: "S" });
    const member = w.as("member");
    for (const assignedTo of [`user:${stranger.id}`, stranger.email, `team:${w.otherTeam.id}`, "team:999999", "user:nope", 42, ["x"]]) {
      assert.equal(await code(() => updateIssue(member, w.one.id, { assignedTo, status: "resolved" })), "bad_request", String(assignedTo));
    }
    assert.equal((await t.store.getIssue(w.one.id))?.status, "unresolved", "a refused assignee changes nothing");
    const byEmail = await updateIssue(member, w.one.id, { assignedTo: w.users.admin.email.toUpperCase() });
    assert.equal(byEmail.issue.assigneeId, w.users.admin.id, "an e-mail address names a member");
    const toTeam = await updateIssue(member, w.one.id, { assignedTo: `team:${w.team.id}` });
    assert.deepEqual([toTeam.issue.assigneeId, toTeam.issue.assigneeTeamId], [null, w.team.id]);
    await updateIssue(member, w.one.id, { assignedTo: `team:${w.team.id}` });
    const cleared = await updateIssue(member, w.one.id, { assignedTo: "" });
    assert.deepEqual([cleared.issue.assigneeId, cleared.issue.assigneeTeamId], [null, null]);
    const activity = (await t.store.issueActivity(w.one.id)).filter((a) => a.type !== "first_seen");
    assert.deepEqual(
      activity.map((a) => [a.type, a.userId, a.data.assigneeType ?? null]),
      [
        ["assigned", w.users.member.id, "user"],
        ["assigned", w.users.member.id, "team"],
        ["unassigned", w.users.member.id, null],
      ],
      "assigning to the current assignee again records nothing",
    );
    assert.equal(activity[0]?.data.assigneeEmail, w.users.admin.email);
    assert.equal(await code(() => updateIssue(w.as("viewer"), w.one.id, { assignedTo: null })), "forbidden");
    assert.equal(await code(() => updateIssue(member, w.one.id, {})), "bad_request");
  });

  test("bulk assignment, and the assignee search: me, none, a #team, an e-mail, is:assigned", async () => {
    const w = await world();
    await updateProjectIssues(w.as("member"), w.org, w.project.slug, [String(w.one.id), String(w.two.id)], { assignedTo: `user:${w.users.member.id}` });
    await updateIssue(w.as("member"), w.two.id, { assignedTo: `team:${w.team.id}` });
    const search = async (role: Role, query: string) =>
      (await listProjectIssues(w.as(role), w.org, w.project.slug, { query, sort: null, page: { limit: 10 } })).page.items.map((i) => i.title).sort();
    assert.deepEqual(await search("member", "assigned:me"), ["E one"]);
    assert.deepEqual(await search("admin", "assigned:me"), []);
    assert.deepEqual(await search("admin", `assigned:${w.users.member.email}`), ["E one"]);
    assert.deepEqual(await search("admin", `assigned:#${w.team.slug}`), ["E two"]);
    assert.deepEqual(await search("admin", "is:assigned"), ["E one", "E two"]);
    assert.deepEqual(await search("admin", "is:unassigned"), []);
    assert.deepEqual(await search("admin", "assigned:[me, none]"), []);
    await setTeamMembership(w.as("member"), w.org, w.team.slug, true);
    assert.deepEqual(await search("member", "assigned:[me, my_teams]"), ["E one", "E two"]);
    await updateIssue(w.as("admin"), w.one.id, { assignedTo: null });
    assert.deepEqual(await search("admin", "assigned:[me, none]"), ["E one"]);
    assert.deepEqual(await search("admin", "assigned:nobody@example.com"), [], "an unknown person matches nothing");
  });

  test("sorts: freq and user are accepted, an unknown sort is a 400; environment= narrows to issues seen there", async () => {
    const w = await world();
    const list = (sort: string | null, environments: string[] = []) =>
      listProjectIssues(w.as("viewer"), w.org, w.project.slug, { query: "", sort, page: { limit: 10 }, environments });
    assert.deepEqual(
      (await list("freq")).page.items.map((i) => i.title),
      ["E one", "E two"],
    );
    assert.equal((await list("user")).page.items.length, 2);
    assert.equal(await code(() => list("priority")), "bad_request");
    for (const sort of ["constructor", "__proto__", "toString"]) assert.equal(await code(() => list(sort)), "bad_request", sort);
    await writeBatch(t.store, {
      spoolId: uniq("spool"),
      position: 1,
      rawItems: [],
      outcomes: [],
      events: [event(w.project.id, "two", { environment: "staging", tags: [["environment", "staging"]] })],
    });
    assert.deepEqual(
      (await list(null, ["staging"])).page.items.map((i) => i.title),
      ["E two"],
    );
    assert.deepEqual((await list(null, ["production"])).page.items, []);
  });
});

describe("comments", () => {
  test("members comment; the author edits; the author, an admin or an owner deletes; viewers read", async () => {
    const w = await world();
    const note = await addComment(w.as("member"), w.one.id, { text: "  Looking into it  " });
    assert.deepEqual([note.type, note.data, note.userId], ["note", { text: "Looking into it" }, w.users.member.id]);
    assert.equal(await code(() => addComment(w.as("viewer"), w.one.id, { text: "hi" })), "forbidden");
    for (const text of ["", "   ", "x".repeat(10_001), 5]) assert.equal(await code(() => addComment(w.as("member"), w.one.id, { text })), "bad_request");
    assert.deepEqual(
      (await listComments(w.as("viewer"), w.one.id, { limit: 10 })).items.map((c) => c.data.text),
      ["Looking into it"],
    );
    assert.equal(await code(() => updateComment(w.as("admin"), w.one.id, note.id, { text: "changed" })), "forbidden", "nobody edits someone else's words");
    assert.deepEqual((await updateComment(w.as("member"), w.one.id, note.id, { text: "Fixed in #12" })).data, { text: "Fixed in #12" });
    const other = await addComment(w.as("admin"), w.one.id, { text: "by admin" });
    assert.equal(await code(() => deleteComment(w.as("member"), w.one.id, other.id)), "forbidden");
    assert.equal(await code(() => deleteComment(w.as("member"), w.two.id, note.id)), "not_found", "a comment belongs to its issue");
    assert.equal(await code(() => deleteComment(w.as("admin"), w.one.id, note.id)), "ok");
    assert.equal(await code(() => deleteComment(w.as("admin"), w.one.id, other.id)), "ok");
    assert.equal(await code(() => deleteComment(w.as("admin"), w.one.id, other.id)), "not_found");
    const status = (await t.store.issueActivity(w.one.id)).find((a) => a.type === "first_seen");
    assert.equal(await code(() => deleteComment(w.as("owner"), w.one.id, status!.id)), "not_found", "only notes are comments");
    assert.equal((await t.store.getIssue(w.one.id))?.numComments, 0);
  });
});

describe("tags and events", () => {
  test("a tag key with its values; an unknown key is not found", async () => {
    const w = await world();
    const tag = await getIssueTag(w.as("viewer"), w.one.id, "browser");
    assert.deepEqual(
      [tag.totalValues, tag.uniqueValues, tag.topValues.map((v) => [v.value, v.count])],
      [
        3,
        2,
        [
          ["Chrome", 2],
          ["Firefox", 1],
        ],
      ],
    );
    assert.equal(await code(() => getIssueTag(w.as("viewer"), w.one.id, "nope")), "not_found");
    assert.equal(await code(() => listIssueTagValues(w.as("viewer"), w.one.id, "nope", { limit: 10 })), "not_found");
    assert.equal((await listIssueTagValues(w.as("viewer"), w.one.id, "browser", { limit: 1 })).page.items.length, 1);
  });

  test("an event by id (dashes and case do not matter), with next and previous; other issues' and projects' events are not found", async () => {
    const w = await world();
    const [a, b, c, d] = w.events.map((e) => e.eventId) as [string, string, string, string];
    const found = await getIssueEvent(w.as("viewer"), w.one.id, b.toUpperCase());
    assert.deepEqual([found.event.eventId, found.next, found.previous], [b, c, a]);
    const dashed = `${a.slice(0, 8)}-${a.slice(8, 12)}-${a.slice(12, 16)}-${a.slice(16, 20)}-${a.slice(20)}`;
    assert.equal((await getIssueEvent(w.as("viewer"), w.one.id, dashed)).previous, null);
    assert.equal(await code(() => getIssueEvent(w.as("viewer"), w.one.id, d)), "not_found", "the event of another issue");
    assert.equal(await code(() => getIssueEvent(w.as("viewer"), w.one.id, "../../etc")), "not_found");
    const viaProject = await getProjectEvent(w.as("viewer"), w.org, w.project.slug, c);
    assert.deepEqual([viaProject.next, viaProject.previous], [null, b]);
    const elsewhere = await world();
    assert.equal(await code(() => getProjectEvent(elsewhere.as("owner"), elsewhere.org, elsewhere.project.slug, c)), "not_found");
    assert.equal(await code(() => getProjectEvent(elsewhere.as("owner"), w.org, w.project.slug, c)), "not_found", "another organization's project");
  });
});

describe("ignoring", () => {
  test("ignoring an ignored issue again keeps its snooze the same size: the baseline holds two counts, not the issue row", async () => {
    const w = await world();
    const sizes: number[] = [];
    for (let i = 0; i < 12; i++) {
      await updateIssue(w.as("member"), w.one.id, { status: "ignored", statusDetails: { ignoreDuration: 60, ignoreCount: 5 } });
      sizes.push((await t.store.getIssue(w.one.id))?.snooze?.length ?? 0);
    }
    // It nested the previous snooze each time and doubled: 1.8 MB after eleven, and the server ran out of memory later.
    assert.ok(
      sizes.every((size) => size > 0 && size === sizes[0]),
      `sizes ${sizes.join(", ")}`,
    );
    const snooze = JSON.parse((await t.store.getIssue(w.one.id))!.snooze!) as { baseline: unknown };
    assert.deepEqual(snooze.baseline, { timesSeen: 3, userCount: 0 });
  });
});
