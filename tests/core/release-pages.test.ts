// The dashboard's release reads through the core: crash-free rates and events summed over a release's projects and
// narrowed by one environment, daily sessions for the chart, new issues, environments, and bad filters as not_found.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { listEnvironments, releaseDetail, releasesPage } from "../../src/core/release-pages";
import { writeBatch } from "../../src/digest/commit";
import type { SessionAggregate } from "../../src/digest/sessions";
import type { CoreContext } from "../../src/core/context";
import { outcome, type TestCore, testCore, uniq } from "../helpers/core";

let t: TestCore;
let ctx: CoreContext;
let org: string;
let web: string;
let webId: number;
before(async () => {
  t = await testCore();
  ctx = t.as(await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" }));
  org = (await createOrganization(ctx, { name: uniq("Org") })).slug;
  web = (await createProject(ctx, org, { name: uniq("Web") })).slug;
  webId = (await t.store.getProjectBySlug((await t.store.getOrganizationBySlug(org))!.id, web))!.id;
  const now = new Date().toISOString();
  const agg = (environment: string, exited: number, crashed: number, distinctId: string | null = null): SessionAggregate => ({
    kind: "aggregate",
    projectId: webId,
    distinctId,
    started: now,
    receivedAt: now,
    release: "web@1",
    environment,
    exited,
    errored: 0,
    abnormal: 0,
    crashed,
  });
  const event = (eventId: string, environment: string) => ({
    projectId: webId,
    eventId,
    type: "error",
    receivedAt: now,
    timestamp: now,
    platform: "node",
    level: "error",
    title: "TypeError: x",
    message: "",
    culprit: "app.js",
    release: "web@1",
    environment,
    size: 2,
    data: "{}",
    category: "error" as const,
    grouping: { config: "c", hashes: ["h"] },
    metadata: "{}",
    userKey: null,
    tags: [],
  });
  await writeBatch(t.store, {
    spoolId: uniq("s"),
    position: 1,
    rawItems: [],
    outcomes: [],
    events: [event("1".repeat(32), "production"), event("2".repeat(32), "staging")],
    sessions: [agg("production", 9, 1), agg("staging", 2, 2)],
  });
});
after(() => t.close());

test("the list and the detail narrow by environment; the chart's last day holds today's sessions", async () => {
  const all = await releasesPage(ctx, org, {});
  assert.deepEqual(
    all.items.map((r) => [r.view.release.version, r.events, r.health.sessions, r.health.crashFreeSessions]),
    [["web@1", 2, 14, 100 - (3 * 100) / 14]],
  );
  const prod = await releasesPage(ctx, org, { environment: "production", project: web });
  assert.deepEqual(
    prod.items.map((r) => [r.events, r.health.sessions, r.health.crashFreeSessions]),
    [[1, 10, 90]],
  );
  const detail = await releaseDetail(ctx, org, "web@1", { environment: "staging" });
  assert.deepEqual(
    [detail.events, detail.health.crashFreeSessions, detail.daily.sessions.at(-1), detail.daily.crashed.at(-1), detail.daily.days.length],
    [1, 50, 4, 2, 30],
  );
  assert.deepEqual(
    detail.newIssues.map((i) => i.title),
    ["TypeError: x"],
  );
  assert.deepEqual(await listEnvironments(ctx, org, null), ["production", "staging"]);
  assert.deepEqual(await listEnvironments(ctx, org, web), ["production", "staging"]);
});

test("unknown releases, projects, cursors and environments too long are not found, never a crash", async () => {
  assert.equal(await outcome(() => releaseDetail(ctx, org, "web@9", {})), "not_found");
  assert.equal(await outcome(() => releasesPage(ctx, org, { project: "nope" })), "not_found");
  assert.equal(await outcome(() => releasesPage(ctx, org, { cursor: "%%%" })), "not_found");
  assert.equal(await outcome(() => releasesPage(ctx, org, { environment: "e".repeat(500) })), "not_found");
  assert.equal(await outcome(() => listEnvironments(ctx, org, "nope")), "not_found");
  const stranger = t.as(await t.accounts.createUser({ email: `${uniq("x")}@example.com`, password: "password123", name: "X" }));
  assert.equal(await outcome(() => releasesPage(stranger, org, {})), "not_found");
});
