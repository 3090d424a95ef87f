// The issue stream through the core, on SQLite: an organization's issues across its projects (or one), the sparkline
// counts, the live poll and the suggestions for members only, and bulk changes across projects that check every
// issue and assignee before changing any.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { issueSearchSuggestions, listOrgIssues, pollIssueStream } from "../../src/core/issue-stream";
import { updateOrgIssues } from "../../src/core/issues";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { createTeam } from "../../src/core/teams";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import { joinByInvitation, outcome as code, type TestCore, testCore, uniq } from "../helpers/core";
import { digestedEvent } from "../helpers/digested-event";

let t: TestCore;
before(async () => {
  t = await testCore();
});
after(() => t.close());

const NOW = new Date("2026-11-23T12:30:00.000Z");
const page = { limit: 25 };
const q = { query: "", sort: null, environment: null, project: null };
const write = (events: DigestedEvent[]) => writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events });

async function world() {
  const mk = () => t.accounts.createUser({ email: `${uniq("u")}@example.com`, password: "password123", name: "U" });
  const owner = await mk();
  const ctx = t.as(owner);
  const org = await createOrganization(ctx, { name: uniq("Org") });
  const team = await createTeam(ctx, org.slug, { slug: uniq("team") });
  const orgId = (await t.store.getOrganizationBySlug(org.slug))!.id;
  const project = async () => (await t.store.getProjectBySlug(orgId, (await createProject(ctx, org.slug, { name: uniq("P"), team: team.slug })).slug))!;
  const [a, b] = [await project(), await project()];
  const viewer = await mk();
  await joinByInvitation(t, ctx, org.slug, { email: viewer.email, role: "viewer" });
  await write([
    digestedEvent("E", a.id, "a1", { timestamp: "2026-11-23T12:10:00.000Z" }),
    digestedEvent("E", a.id, "a1", { timestamp: "2026-11-23T10:10:00.000Z" }),
    digestedEvent("E", a.id, "a1", { timestamp: "2026-11-20T10:10:00.000Z" }),
    digestedEvent("E", b.id, "b1", { level: "warning", timestamp: "2026-11-23T11:00:00.000Z" }),
  ]);
  return { org: org.slug, a, b, team, owner, viewer, ctx, stranger: await mk() };
}

test("the stream lists every project's issues or one project's, searched, with 24 h and 14 d series", async () => {
  const w = await world();
  const all = await listOrgIssues(w.ctx, w.org, { ...q, period: "24h", page }, NOW);
  assert.deepEqual(all.page.items.map((i) => i.title).sort(), ["E a1", "E b1"]);
  assert.equal(all.projects.length, 2);
  assert.equal(all.empty, false);
  const a1 = all.page.items.find((i) => i.title === "E a1")!;
  const hourly = all.series.get(a1.id)!;
  assert.equal(hourly.length, 24);
  assert.deepEqual([hourly[21], hourly[23], hourly.reduce((s, v) => s + v, 0)], [1, 1, 2], "10:00 and 12:00 of today; three days ago is outside");
  const daily = (await listOrgIssues(w.ctx, w.org, { ...q, period: "14d", page }, NOW)).series.get(a1.id)!;
  assert.deepEqual([daily.length, daily[13], daily[10]], [14, 2, 1]);
  const one = await listOrgIssues(w.ctx, w.org, { ...q, project: w.b.slug, period: "24h", page }, NOW);
  assert.deepEqual(
    one.page.items.map((i) => i.title),
    ["E b1"],
  );
  assert.equal(one.selected?.id, w.b.id);
  assert.deepEqual(
    (await listOrgIssues(w.ctx, w.org, { ...q, query: "level:error a1", period: "24h", page }, NOW)).page.items.map((i) => i.title),
    ["E a1"],
  );
  assert.equal(await code(() => listOrgIssues(w.ctx, w.org, { ...q, project: "nope", period: "24h", page }, NOW)), "not_found");
  assert.equal(await code(() => listOrgIssues(w.ctx, w.org, { ...q, sort: "bogus", period: "24h", page }, NOW)), "bad_request");
  assert.equal(await code(() => listOrgIssues(w.ctx, w.org, { ...q, query: "level:loud", period: "24h", page }, NOW)), "bad_request");
  assert.equal(await code(() => listOrgIssues(t.as(w.stranger), w.org, { ...q, period: "24h", page }, NOW)), "not_found", "non-members see nothing");
});

test("an organization without issues is empty; the poll announces new issues and changed counts to members only", async () => {
  const w = await world();
  const fresh = await createOrganization(w.ctx, { name: uniq("Empty") });
  const none = await listOrgIssues(w.ctx, fresh.slug, { ...q, period: "24h", page }, NOW);
  assert.deepEqual([none.empty, none.page.items.length, none.newestId], [true, 0, 0]);

  const start = await listOrgIssues(w.ctx, w.org, { ...q, period: "24h", page }, NOW);
  const a1 = start.page.items.find((i) => i.title === "E a1")!;
  await write([digestedEvent("E", w.a.id, "a1"), digestedEvent("E", w.b.id, "b2")]);
  const tick = await pollIssueStream(t.as(w.viewer), w.org, { ...q, afterId: start.newestId, watchIds: [a1.id] });
  assert.equal(tick.newIssues, 1);
  assert.equal(tick.watched.find((x) => x.id === a1.id)?.timesSeen, 4);
  assert.equal(
    (await pollIssueStream(w.ctx, w.org, { ...q, project: w.a.slug, afterId: start.newestId, watchIds: [] })).newIssues,
    0,
    "b2 is in the other project",
  );
  assert.equal(await code(() => pollIssueStream(t.as(w.stranger), w.org, { ...q, afterId: 0, watchIds: [a1.id] })), "not_found");
});

test("suggestions name the releases, environments, members and teams of the organization", async () => {
  const w = await world();
  await write([digestedEvent("E", w.a.id, "r", { release: "web@1.2.3", environment: "production" })]);
  const s = await issueSearchSuggestions(w.ctx, w.org, null);
  assert.deepEqual([s.releases, s.environments, s.teams], [["web@1.2.3"], ["production"], [{ id: w.team.id, slug: w.team.slug }]]);
  assert.deepEqual(s.users.map((u) => u.email).sort(), [w.owner.email, w.viewer.email].sort());
  assert.ok(s.users.some((u) => u.id === w.owner.id));
  assert.equal(await code(() => issueSearchSuggestions(t.as(w.stranger), w.org, null)), "not_found");
});

test("bulk changes across projects: resolve, ignore with a condition, assign a team; checked first, viewers refused", async () => {
  const w = await world();
  const { items } = (await listOrgIssues(w.ctx, w.org, { ...q, period: "24h", page }, NOW)).page;
  const ids = items.map((i) => String(i.id));
  const resolved = await updateOrgIssues(w.ctx, w.org, ids, { status: "resolved" });
  assert.deepEqual(
    resolved.map((v) => v.issue.status),
    ["resolved", "resolved"],
  );
  const ignored = await updateOrgIssues(w.ctx, w.org, ids, { status: "ignored", statusDetails: { ignoreCount: 10 } });
  assert.deepEqual(
    ignored.map((v) => [v.issue.status, v.issue.substatus]),
    [
      ["ignored", "archived_until_condition_met"],
      ["ignored", "archived_until_condition_met"],
    ],
  );
  const assigned = await updateOrgIssues(w.ctx, w.org, ids, { assignedTo: `team:${w.team.id}` });
  assert.deepEqual(
    assigned.map((v) => v.issue.assigneeTeamId),
    [w.team.id, w.team.id],
  );
  assert.equal(await code(() => updateOrgIssues(w.ctx, w.org, ids, { assignedTo: `user:${w.stranger.id}` })), "bad_request");
  assert.deepEqual(
    (await Promise.all(items.map((i) => t.store.getIssue(i.id)))).map((i) => i?.assigneeTeamId),
    [w.team.id, w.team.id],
    "a refused assignee changes nothing",
  );
  assert.equal(await code(() => updateOrgIssues(t.as(w.viewer), w.org, ids, { status: "resolved" })), "forbidden");
  assert.equal(await code(() => updateOrgIssues(w.ctx, w.org, [], { status: "resolved" })), "bad_request");
  assert.equal(await code(() => updateOrgIssues(w.ctx, w.org, ids, { status: "bogus" })), "bad_request");
  const other = await world();
  const foreign = (await t.store.listIssues(other.a.id, { page: { limit: 1 } })).items[0]!;
  assert.equal(
    await code(() => updateOrgIssues(w.ctx, w.org, [...ids, String(foreign.id)], { status: "unresolved" })),
    "not_found",
    "another organization's issue",
  );
  assert.deepEqual(
    (await Promise.all(items.map((i) => t.store.getIssue(i.id)))).map((i) => i?.status),
    ["ignored", "ignored"],
    "nothing changed",
  );
});
