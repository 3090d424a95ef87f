// The performance pages' reads through the core (core/performance.ts) on SQLite, from data the digest wrote: the
// transaction table with percentiles, failure rate, Apdex and the previous period, web vitals per page with the
// performance score, a trace's waterfall across projects with its errors, and access (non-members see nothing).
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { parsePeriod, performanceOverview, traceView, waterfall, webVitals } from "../../src/core/performance";
import type { CoreContext } from "../../src/core/context";
import { writeBatch } from "../../src/digest/commit";
import { digestRows } from "../../src/digest/items";
import { type TestCore, outcome, testCore, uniq } from "../helpers/core";
import { spoolRow } from "../storage/conformance-spans";

let t: TestCore;
let ctx: CoreContext;
let stranger: CoreContext;
let org: string;
let api: string;
const traceId = "feedfacefeedfacefeedfacefeedface";
const hex = (n: number) => n.toString(16).padStart(32, "0");

before(async () => {
  t = await testCore();
  ctx = t.as(await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" }));
  stranger = t.as(await t.accounts.createUser({ email: `${uniq("s")}@example.com`, password: "password123", name: "S" }));
  org = (await createOrganization(ctx, { name: uniq("Org") })).slug;
  api = (await createProject(ctx, org, { name: uniq("Api") })).slug;
  const web = (await createProject(ctx, org, { name: uniq("Web") })).slug;
  const o = (await t.store.getOrganizationBySlug(org))!;
  const apiId = (await t.store.getProjectBySlug(o.id, api))!.id;
  const webId = (await t.store.getProjectBySlug(o.id, web))!.id;
  const now = Date.now() / 1000 - 120;
  const rows = [];
  // 20 "GET /a" of 100..1995 ms (two failed), 5 "GET /b" of 50 ms; one a day ago (the previous period).
  for (let i = 0; i < 20; i++) {
    const duration = 0.1 + i * 0.1;
    rows.push(
      spoolRow(
        apiId,
        "transaction",
        {
          transaction: "GET /a",
          start_timestamp: now,
          timestamp: now + duration,
          contexts: {
            trace: {
              trace_id: i === 0 ? traceId : hex(i + 1),
              span_id: (i + 1).toString(16).padStart(16, "0"),
              op: "http.server",
              status: i < 2 ? "internal_error" : "ok",
            },
          },
        },
        { eventId: hex(1000 + i) },
      ),
    );
  }
  for (let i = 0; i < 5; i++)
    rows.push(
      spoolRow(
        apiId,
        "transaction",
        {
          transaction: "GET /b",
          start_timestamp: now,
          timestamp: now + 0.05,
          contexts: { trace: { trace_id: hex(50 + i), span_id: (50 + i).toString(16).padStart(16, "0"), op: "http.server" } },
        },
        { eventId: hex(2000 + i) },
      ),
    );
  rows.push(
    spoolRow(
      apiId,
      "transaction",
      {
        transaction: "GET /b",
        start_timestamp: now - 86_400,
        timestamp: now - 86_400 + 0.5,
        contexts: { trace: { trace_id: hex(99), span_id: "9".repeat(16), op: "http.server" } },
      },
      { eventId: hex(3000) },
    ),
  );
  // The browser's pageload (span v2) is the parent of the first GET /a; its vitals; an error in the same trace.
  rows.push(
    spoolRow(webId, "span", {
      version: 2,
      items: [
        {
          trace_id: traceId,
          span_id: "a".repeat(16),
          name: "/home",
          start_timestamp: now - 0.5,
          end_timestamp: now + 1,
          status: "ok",
          is_segment: true,
          attributes: {
            "sentry.op": { type: "string", value: "pageload" },
            "browser.web_vital.fcp.value": { type: "double", value: 800 },
            "browser.web_vital.ttfb.value": { type: "double", value: 150 },
          },
        },
        {
          trace_id: traceId,
          span_id: "b".repeat(16),
          parent_span_id: "a".repeat(16),
          name: "lcp",
          start_timestamp: now + 0.01,
          end_timestamp: now + 0.01,
          status: "ok",
          attributes: { "sentry.segment.name": { type: "string", value: "/home" }, "browser.web_vital.lcp.value": { type: "double", value: 1100 } },
        },
      ],
    }),
  );
  rows.push(
    spoolRow(apiId, "event", { message: "db down", contexts: { trace: { trace_id: traceId, span_id: "1".padStart(16, "0") } } }, { eventId: hex(4000) }),
  );
  // The root of GET /a's first trace names the pageload span as its parent.
  const first = rows[0]!;
  const tx = JSON.parse(Buffer.from(first.payload).toString("utf8"));
  tx.contexts.trace.parent_span_id = "a".repeat(16);
  rows[0] = spoolRow(apiId, "transaction", tx, { eventId: first.eventId });
  await writeBatch(t.store, { spoolId: uniq("s"), position: 1, ...(await digestRows(rows)) });
});
after(() => t.close());

test("the transaction table: throughput, percentiles within 5%, failure rate, Apdex, the previous period", async () => {
  const p = await performanceOverview(ctx, org, api, {});
  assert.deepEqual(
    p.rows.map((r) => [r.transaction, r.current.count]),
    [
      ["GET /a", 20],
      ["GET /b", 5],
    ],
    "busiest first",
  );
  const a = p.rows[0]!.current;
  const close = (v: number | null, exact: number) => assert.ok(v !== null && Math.abs(v - exact) <= exact * 0.05, `${v} vs ${exact}`);
  close(a.p50, 1000); // rank 9.5 of 100..2000 → the 10th value
  close(a.p95, 1900);
  assert.equal(a.failureRate, 2 / 20);
  // ≤ 300 ms: 100, 200, 300 (3 satisfied); > 1200 ms: 1300..2000 (8 frustrated); 9 tolerated.
  assert.equal(a.apdex, (3 + 9 / 2) / 20);
  assert.equal(p.total.current.count, 25);
  assert.equal(p.rows[1]!.previous.count, 1, "the day-old GET /b counts in the previous 24 hours");
  const week = await performanceOverview(ctx, org, api, { period: "7d" });
  assert.equal(week.rows.find((r) => r.transaction === "GET /b")!.current.count, 6);
  assert.equal(p.chart.times.length, 24);
  assert.equal(
    p.chart.count.reduce((x, y) => x + y, 0),
    25,
  );
  const one = await performanceOverview(ctx, org, api, { transaction: "GET /a" });
  assert.equal(
    one.chart.count.reduce((x, y) => x + y, 0),
    20,
  );
  assert.equal(one.recent.length, 20);
  assert.equal(parsePeriod(undefined), "24h");
  assert.equal(await outcome(() => performanceOverview(ctx, org, api, { period: "1y" })), "not_found");
  assert.equal(await outcome(() => performanceOverview(stranger, org, api, {})), "not_found", "non-members see no project");
});

test("web vitals per page: p75, the good / needs improvement / poor split, the performance score", async () => {
  const webSlug = (
    await t.store.listProjects({ scope: { organizationIds: [(await t.store.getOrganizationBySlug(org))!.id] }, page: { limit: 10 } })
  ).items.find((p) => p.slug !== api)!.slug;
  const v = await webVitals(ctx, org, webSlug, {});
  assert.deepEqual(
    v.pages.map((p) => p.transaction),
    ["", "/home"],
    "the project first, then each page",
  );
  const home = v.pages[1]!;
  assert.deepEqual(Object.keys(home.vitals).sort(), ["fcp", "lcp", "ttfb"]);
  assert.deepEqual([home.vitals.lcp!.good, home.vitals.lcp!.meh, home.vitals.lcp!.poor], [1, 0, 0]);
  assert.ok(Math.abs(home.vitals.lcp!.p75! - 1100) <= 55);
  assert.ok(home.score! > 85 && home.score! <= 100, `score ${home.score}`);
  assert.deepEqual((await webVitals(ctx, org, api, {})).pages, []);
});

test("a trace across projects as a waterfall (children under parents), with its errors; unknown traces are not found", async () => {
  const tr = await traceView(ctx, org, traceId.toUpperCase());
  assert.deepEqual(
    tr.spans.map((s) => [s.transaction, s.depth]),
    [
      ["/home", 0],
      ["GET /a", 1],
      ["/home", 1],
    ],
  );
  assert.deepEqual(
    tr.errors.map((e) => [e.title, e.issueId !== null]),
    [["db down", true]],
  );
  assert.ok(tr.durationMs >= 1400);
  assert.equal(await outcome(() => traceView(ctx, org, "nope")), "not_found");
  assert.equal(await outcome(() => traceView(ctx, org, "0".repeat(32))), "not_found");
  assert.equal(await outcome(() => traceView(stranger, org, traceId)), "not_found");
});

test("waterfall: a parent cycle or a missing parent never loses a span", () => {
  const span = (id: string, parent: string | null, start: number) => ({
    id: 0,
    projectId: 1,
    traceId,
    spanId: id,
    parentSpanId: parent,
    segmentId: null,
    isSegment: false,
    transaction: "t",
    op: "o",
    description: "",
    status: "ok",
    startTime: new Date(start).toISOString(),
    durationMs: 1,
    environment: null,
    release: null,
    eventId: null,
  });
  const w = waterfall([span("x", "y", 2), span("y", "x", 1), span("z", "missing", 0)], 0);
  assert.deepEqual(
    w.map((s) => [s.spanId, s.depth]),
    [
      ["z", 0],
      ["x", 0],
      ["y", 0],
    ],
  );
});
