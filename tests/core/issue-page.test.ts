// The issue page's one read through the core, on SQLite: the event it shows (latest, oldest, by id, within an
// environment), the release it was last seen in, frequency, activity with who acted, and what each role may do;
// another organization's slug and a non-member get not found. Also the page's text forms of an exception: the raw
// stack trace (the Markdown summary: issue-markdown.test.ts).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { addComment } from "../../src/core/issue-comments";
import { getIssuePage } from "../../src/core/issue-page";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { createTeam } from "../../src/core/teams";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { ExceptionValue, Frame } from "../../src/web/components/issue/event-view";
import { rawStacktrace } from "../../src/web/components/issue/raw-stacktrace";
import { joinByInvitation, outcome as code, type TestCore, testCore, uniq } from "../helpers/core";

let t: TestCore;
before(async () => {
  t = await testCore();
});
after(() => t.close());

let n = 0;
const now = new Date().toISOString();
const event = (projectId: number, over: Partial<DigestedEvent> = {}): DigestedEvent => ({
  projectId,
  eventId: (++n).toString(16).padStart(32, "b"),
  type: "error",
  receivedAt: now,
  timestamp: now,
  platform: "node",
  level: "error",
  title: "Error: boom",
  message: "",
  culprit: "checkout",
  release: null,
  environment: null,
  size: 2,
  data: "{}",
  category: "error",
  grouping: { config: "c", hashes: ["page"] },
  metadata: "{}",
  userKey: null,
  tags: [],
  ...over,
});

describe("getIssuePage under an environment filter", () => {
  test("tags and frequency count only the issue's events in that environment; without a filter, all of them", async () => {
    const owner = await t.accounts.createUser({ email: `${uniq("p")}@example.com`, password: "password123", name: "" });
    const ctx = t.as(owner);
    const org = await createOrganization(ctx, { name: uniq("Org") });
    const created = await createProject(ctx, org.slug, { name: uniq("Project") });
    const project = (await t.store.getProjectBySlug((await t.store.getOrganizationBySlug(org.slug))!.id, created.slug))!;
    const at = (environment: string, browser: string) => {
      const data = JSON.stringify({ environment, level: "error", tags: [["browser", browser]] });
      return event(project.id, {
        environment,
        data,
        grouping: { config: "c", hashes: ["env-page"] },
        tags: [
          ["browser", browser],
          ["environment", environment],
        ],
      });
    };
    const events = [at("production", "Chrome"), at("production", "Chrome"), at("production", "Firefox"), at("staging", "Safari")];
    await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events });
    const issueId = (await t.store.listIssues(project.id, { page: { limit: 10 } })).items[0]!.id;
    const values = (p: Awaited<ReturnType<typeof getIssuePage>>, key: string) => p.tags.find((x) => x.key === key)?.topValues.map((v) => [v.value, v.count]);
    const sum = (points: [number, number][]) => points.reduce((n, [, c]) => n + c, 0);

    const all = await getIssuePage(ctx, org.slug, issueId, "latest");
    assert.equal(all.inEnvironment, null);
    assert.deepEqual(values(all, "browser"), [
      ["Chrome", 2],
      ["Firefox", 1],
      ["Safari", 1],
    ]);
    assert.equal(sum(all.frequency["24h"]), 4);

    const production = await getIssuePage(ctx, org.slug, issueId, "latest", "production");
    assert.deepEqual(production.inEnvironment, { environment: "production", taggedEvents: 3 });
    assert.deepEqual(values(production, "browser"), [
      ["Chrome", 2],
      ["Firefox", 1],
    ]);
    assert.deepEqual(values(production, "environment"), [["production", 3]]);
    assert.equal(production.tags.find((x) => x.key === "browser")?.totalValues, 3);
    assert.equal(sum(production.frequency["24h"]), 3);
    assert.equal(sum(production.frequency["30d"]), 3);

    const staging = await getIssuePage(ctx, org.slug, issueId, "latest", "staging");
    assert.deepEqual(values(staging, "browser"), [["Safari", 1]]);
    assert.equal(sum(staging.frequency["24h"]), 1);

    // An environment without events of the issue shows the issue as a whole, as its event does.
    const nowhere = await getIssuePage(ctx, org.slug, issueId, "latest", "nowhere");
    assert.deepEqual([nowhere.outsideEnvironment, nowhere.inEnvironment, sum(nowhere.frequency["24h"])], [true, null, 4]);
  });
});

describe("getIssuePage", () => {
  test("the event shown, last release, frequency, activity and permissions; not found across organizations", async () => {
    const mk = () => t.accounts.createUser({ email: `${uniq("p")}@example.com`, password: "password123", name: "" });
    const owner = await mk();
    const ctx = t.as(owner);
    const org = await createOrganization(ctx, { name: uniq("Org") });
    const otherOrg = await createOrganization(ctx, { name: uniq("Org") });
    const team = await createTeam(ctx, org.slug, { slug: uniq("team") });
    const created = await createProject(ctx, org.slug, { name: uniq("Project"), team: team.slug });
    const project = (await t.store.getProjectBySlug((await t.store.getOrganizationBySlug(org.slug))!.id, created.slug))!;
    const roles = { member: await mk(), viewer: await mk() };
    for (const role of ["member", "viewer"] as const) await joinByInvitation(t, ctx, org.slug, { email: roles[role].email, role });
    const outsider = await mk();
    const events = [
      event(project.id, { release: "1.0.0", environment: "production" }),
      event(project.id, { release: "1.0.0", environment: "staging" }),
      event(project.id, { release: "1.1.0", environment: "production" }),
    ];
    await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events });
    const [a, b, c] = events.map((e) => e.eventId) as [string, string, string];
    const issueId = (await t.store.listIssues(project.id, { page: { limit: 10 } })).items[0]!.id;

    const latest = await getIssuePage(ctx, org.slug, String(issueId), "latest");
    assert.deepEqual([latest.event.eventId, latest.previous, latest.next, latest.outsideEnvironment], [c, b, null, false]);
    assert.equal(latest.lastRelease, "1.1.0");
    assert.equal(
      latest.frequency["24h"].reduce((s, [, count]) => s + count, 0),
      3,
    );
    assert.equal(latest.frequency["30d"].length, 30);
    assert.equal(latest.assignable.team?.id, team.id);
    assert.deepEqual(latest.may, { update: true, delete: true, comment: true, moderate: true });
    assert.deepEqual(
      latest.activity.map((x) => [x.type, x.user]),
      [["first_seen", null]],
    );

    const oldest = await getIssuePage(ctx, org.slug, issueId, "oldest");
    assert.deepEqual([oldest.event.eventId, oldest.previous, oldest.next, oldest.lastRelease], [a, null, b, "1.1.0"]);
    const byId = await getIssuePage(ctx, org.slug, issueId, b, "production");
    assert.deepEqual([byId.event.eventId, byId.previous, byId.next], [b, a, c]);
    const staging = await getIssuePage(ctx, org.slug, issueId, "latest", "staging");
    assert.deepEqual([staging.event.eventId, staging.previous, staging.next, staging.outsideEnvironment, staging.lastRelease], [b, null, null, false, "1.1.0"]);
    const nowhere = await getIssuePage(ctx, org.slug, issueId, "latest", "nowhere");
    assert.deepEqual([nowhere.event.eventId, nowhere.outsideEnvironment], [c, true]);

    await addComment(t.as(roles.member), issueId, { text: "seen in checkout" });
    const member = await getIssuePage(t.as(roles.member), org.slug, issueId, "latest");
    assert.deepEqual(member.may, { update: true, delete: false, comment: true, moderate: false });
    assert.deepEqual([member.activity[0]?.type, member.activity[0]?.user?.id, member.activity[0]?.data.text], ["note", roles.member.id, "seen in checkout"]);
    assert.deepEqual((await getIssuePage(t.as(roles.viewer), org.slug, issueId, "latest")).may, {
      update: false,
      delete: false,
      comment: false,
      moderate: false,
    });

    assert.equal(await code(() => getIssuePage(ctx, otherOrg.slug, issueId, "latest")), "not_found");
    assert.equal(await code(() => getIssuePage(t.as(outsider), org.slug, issueId, "latest")), "not_found");
    assert.equal(await code(() => getIssuePage(ctx, org.slug, issueId, "0".repeat(32))), "not_found");
    assert.equal(await code(() => getIssuePage(ctx, org.slug, issueId, "not-an-id")), "not_found");
    assert.equal(await code(() => getIssuePage(ctx, org.slug, "x", "latest")), "not_found");
  });
});

const frame = (over: Partial<Frame>): Frame => ({
  filename: null,
  absPath: null,
  module: null,
  function: null,
  platform: null,
  lineNo: null,
  colNo: null,
  inApp: true,
  context: [],
  vars: null,
  ...over,
});
const frames = [
  frame({ filename: "node:internal/timers", function: "listOnTimeout", lineNo: 581, colNo: 17, inApp: false }),
  frame({
    filename: "app/cart.js",
    function: "checkout",
    lineNo: 12,
    colNo: 5,
    context: [
      [11, "  try {"],
      [12, "    pay();  "],
    ],
  }),
  frame({ filename: "app/pay.js", function: null, lineNo: 3, colNo: null }),
];
const exception: ExceptionValue = { type: "TypeError", value: "no card", module: null, mechanism: null, stacktrace: { frames, hasSystemFrames: true } };

describe("text forms of an exception", () => {
  test("raw stack traces: JavaScript newest call first, Python in traceback order with the source line", () => {
    assert.equal(
      rawStacktrace(exception, "node"),
      ["TypeError: no card", "  at ? (app/pay.js:3)", "  at checkout (app/cart.js:12:5)", "  at listOnTimeout (node:internal/timers:581:17)"].join("\n"),
    );
    assert.equal(
      rawStacktrace(exception, "python"),
      [
        "TypeError: no card",
        '  File "node:internal/timers", line 581, col 17, in listOnTimeout',
        '  File "app/cart.js", line 12, col 5, in checkout\n    pay();',
        '  File "app/pay.js", line 3',
      ].join("\n"),
    );
  });

  test("raw stack trace as sent: the frames before source maps, where symbolication kept them", () => {
    const minified = [
      frame({ filename: "/static/app.js", function: "n", lineNo: 1, colNo: 2045 }),
      frame({ filename: "/static/app.js", function: "r", lineNo: 1, colNo: 311 }),
    ];
    const mapped: ExceptionValue = { ...exception, rawStacktrace: { frames: minified, hasSystemFrames: false } };
    assert.equal(
      rawStacktrace(mapped, "javascript", true),
      ["TypeError: no card", "  at r (/static/app.js:1:311)", "  at n (/static/app.js:1:2045)"].join("\n"),
    );
    assert.equal(rawStacktrace(mapped, "javascript"), rawStacktrace(exception, "javascript"), "without asSent: the mapped frames");
    assert.equal(rawStacktrace(exception, "javascript", true), rawStacktrace(exception, "javascript"), "nothing kept raw: the frames there are");
  });
});
