// Metric alerts (issue 17), run by conformance.ts on each dialect: the rules' store, each aggregate over fixtures with
// a known answer, and the evaluation's state machine with its outbox rows, claims and idempotency.
import assert from "node:assert/strict";
import { test } from "node:test";
import { evaluateMetricAlerts } from "../../src/alerts/metric-evaluator";
import { type AggregateKind, parseAggregate } from "../../src/core/metric-alert-defs";
import { createStore } from "../../src/storage/kysely";
import type { MetricAlertInput } from "../../src/storage/metric-alert-ports";
import { WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";
import { addEvent, addIssueWithUsers, addSessionHour, addSessionUser, addTransaction } from "../helpers/metric-fixtures";

type Fixture = { t: TestCore; alice: User };

const MIN = 60_000;
/** A minute boundary an hour into the past, in the middle of an hour, so hourly and minute sources differ. */
const END = Math.floor((Date.now() - 3_600_000) / 3_600_000) * 3_600_000 + 30 * MIN;
const at = (ms: number) => new Date(ms).toISOString();
const kind = (aggregate: string): AggregateKind => parseAggregate(aggregate)!.kind;

function input(over: Partial<MetricAlertInput> = {}): MetricAlertInput {
  return {
    projectId: null,
    name: "Errors",
    aggregate: "count()",
    dataset: "events",
    query: "",
    environment: null,
    timeWindow: 5,
    thresholdType: 0,
    resolveThreshold: null,
    triggers: [{ label: "critical", alertThreshold: 10, actions: [] }],
    ...over,
  };
}

export function metricAlertConformance(get: () => Fixture) {
  async function world() {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("metric"), name: "Metric", ownerUserId: alice.id });
    const other = await t.store.createOrganization({ slug: uniq("metric"), name: "Other", ownerUserId: alice.id });
    const api = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("api"), name: "API", platform: null });
    const web = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("web"), name: "Web", platform: null });
    const stranger = await t.store.createProject({ organizationId: other.id, teamId: null, slug: uniq("x"), name: "X", platform: null });
    return { t, alice, org, other, api, web, stranger };
  }

  test("issue 17 metric alerts: rules are created, read, changed and deleted within their organization only", async () => {
    const { t, alice, org, other, api } = await world();
    const rule = await t.store.createMetricAlert(
      org.id,
      input({
        projectId: api.id,
        environment: "production",
        resolveThreshold: 4,
        triggers: [
          { label: "critical", alertThreshold: 10, actions: [{ id: WEBHOOK_ACTION, service: "webhooks", url: "https://hooks.example.com/x" }] },
          { label: "warning", alertThreshold: 5, actions: [] },
        ],
      }),
      alice.id,
      at(END),
    );
    assert.equal(rule.status, "resolved");
    assert.equal(rule.project?.slug, api.slug);
    assert.equal(rule.resolveThreshold, 4);
    assert.deepEqual(
      rule.triggers.map((x) => [x.label, x.alertThreshold, x.actions.length]),
      [
        ["critical", 10, 1],
        ["warning", 5, 0],
      ],
    );
    assert.equal(await t.store.getMetricAlert(other.id, rule.id), null);
    assert.equal(await t.store.updateMetricAlert(other.id, rule.id, input(), at(END)), null);
    assert.equal(await t.store.deleteMetricAlert(other.id, rule.id), false);
    const changed = await t.store.updateMetricAlert(org.id, rule.id, input({ name: "Renamed", timeWindow: 60 }), at(END + MIN));
    assert.equal(changed?.name, "Renamed");
    assert.equal(changed?.project, null);
    assert.equal(changed?.timeWindow, 60);
    assert.deepEqual(
      (await t.store.listMetricAlerts(org.id)).map((r) => r.id),
      [rule.id],
    );
    assert.equal(await t.store.countMetricAlerts(org.id), 1);
    assert.equal(await t.store.deleteMetricAlert(org.id, rule.id), true);
    assert.equal(await t.store.getMetricAlert(org.id, rule.id), null);
  });

  test("issue 17 metric alerts: count() counts the window's error events by arrival, minute-exact, narrowed by project, environment and query", async () => {
    const { t, org, api, web, stranger } = await world();
    const db = t.db;
    await addEvent(db, api.id, at(END - 30_000), { environment: "production" });
    await addEvent(db, api.id, at(END - 4 * MIN), { environment: "staging", level: "warning" });
    await addEvent(db, web.id, at(END - 5 * MIN), { environment: "production" }); // the window's first instant counts
    await addEvent(db, api.id, at(END - 5 * MIN - 1000)); // just before the window
    await addEvent(db, api.id, at(END)); // the window ends before its last instant
    await addEvent(db, api.id, at(END - MIN), { type: "transaction" });
    await addEvent(db, stranger.id, at(END - MIN));
    const q = (over: object = {}) =>
      t.store.computeMetricValue({
        organizationId: org.id,
        projectId: null,
        kind: kind("count()"),
        filters: [],
        environment: null,
        start: at(END - 5 * MIN),
        end: at(END),
        ...over,
      });
    assert.equal(await q(), 3);
    assert.equal(await q({ projectId: api.id }), 2);
    assert.equal(await q({ environment: "production" }), 2);
    assert.equal(await q({ filters: [{ key: "level", value: "warning" }] }), 1);
    assert.equal(await q({ start: at(END - MIN) }), 1);
  });

  test("issue 17 metric alerts: count_unique(user) counts each user seen in the window once across the scope's issues", async () => {
    const { t, org, api, web, stranger } = await world();
    await addIssueWithUsers(t.db, api.id, [
      { key: "u:1", lastSeen: at(END - MIN) },
      { key: "u:2", lastSeen: at(END - 2 * MIN) },
      { key: "u:old", lastSeen: at(END - 30 * MIN) },
    ]);
    await addIssueWithUsers(t.db, web.id, [
      { key: "u:1", lastSeen: at(END - 3 * MIN) },
      { key: "u:3", lastSeen: at(END - 4 * MIN) },
    ]);
    await addIssueWithUsers(t.db, stranger.id, [{ key: "u:9", lastSeen: at(END - MIN) }]);
    const q = (projectId: number | null) =>
      t.store.computeMetricValue({
        organizationId: org.id,
        projectId,
        kind: kind("count_unique(user)"),
        filters: [],
        environment: null,
        start: at(END - 5 * MIN),
        end: at(END),
      });
    assert.equal(await q(null), 3);
    assert.equal(await q(api.id), 2);
  });

  test("issue 17 metric alerts: crash-free sessions read whole hours overlapping the window; crash-free users those seen in it", async () => {
    const { t, org, api } = await world();
    const hour = END - 30 * MIN; // END is half past
    await addSessionHour(t.db, api.id, at(hour).replace(".000Z", "Z"), 200, 3);
    await addSessionHour(t.db, api.id, at(hour - 3_600_000).replace(".000Z", "Z"), 100, 50);
    await addSessionHour(t.db, api.id, at(hour).replace(".000Z", "Z"), 100, 100, "staging");
    const sessions = (window: number, environment: string | null) =>
      t.store.computeMetricValue({
        organizationId: org.id,
        projectId: api.id,
        kind: kind("percentage(sessions_crashed, sessions) AS _crash_rate_alert_aggregate"),
        filters: [],
        environment,
        start: at(END - window * MIN),
        end: at(END),
      });
    assert.equal(await sessions(10, "production"), 98.5);
    assert.equal(await sessions(60, "production"), 82.333); // both hours: 1 - 53/300
    assert.equal(await sessions(10, null), 65.667); // 1 - 103/300
    for (const [id, crashed, ago] of [
      ["a", false, 1],
      ["b", true, 2],
      ["c", false, 3],
      ["d", false, 9],
      ["e", true, 90],
    ] as const)
      await addSessionUser(t.db, api.id, id, at(END - ago * MIN), crashed);
    const users = await t.store.computeMetricValue({
      organizationId: org.id,
      projectId: null,
      kind: kind("percentage(users_crashed, users) AS _crash_rate_alert_aggregate"),
      filters: [],
      environment: null,
      start: at(END - 10 * MIN),
      end: at(END),
    });
    assert.equal(users, 75);
    assert.equal(
      await t.store.computeMetricValue({
        organizationId: org.id,
        projectId: null,
        kind: kind("percentage(users_crashed, users) AS _crash_rate_alert_aggregate"),
        filters: [],
        environment: "nowhere",
        start: at(END - 10 * MIN),
        end: at(END),
      }),
      null,
    );
  });

  test("issue 17 metric alerts: p50/p75/p95 are exact (interpolated between ranks), failure_rate() and apdex(300) from the window's transactions", async () => {
    const { t, org, api } = await world();
    const durations: [number, string][] = [
      [100, "ok"],
      [200, "ok"],
      [300, "internal_error"],
      [400, "cancelled"],
      [1000, "unknown"],
    ];
    for (const [i, [d, s]] of durations.entries()) await addTransaction(t.db, api.id, at(END - (i + 1) * MIN), d, s);
    await addTransaction(t.db, api.id, at(END - 20 * MIN), 99_999, "internal_error"); // outside the window
    await addTransaction(t.db, api.id, at(END - MIN), 5000, "internal_error", "POST /other");
    const q = (aggregate: string, filters: { key: string; value: string }[] = [{ key: "transaction", value: "GET /items" }]) =>
      t.store.computeMetricValue({
        organizationId: org.id,
        projectId: null,
        kind: kind(aggregate),
        filters,
        environment: "production",
        start: at(END - 10 * MIN),
        end: at(END),
      });
    assert.equal(await q("p50(transaction.duration)"), 300);
    assert.equal(await q("p75(transaction.duration)"), 400);
    assert.ok(Math.abs((await q("p95(transaction.duration)"))! - 880) < 1e-9);
    assert.equal(await q("failure_rate()"), 0.2);
    assert.equal(await q("apdex(300)"), 0.8); // 3 satisfied, 2 tolerated of 5
    assert.equal(await q("failure_rate()", []), 2 / 6);
    assert.equal(
      await t.store.computeMetricValue({
        organizationId: org.id,
        projectId: null,
        kind: kind("apdex(300)"),
        filters: [],
        environment: null,
        start: at(END - 30 * MIN),
        end: at(END - 25 * MIN),
      }),
      null,
    );
  });

  test("issue 17 metric alerts: critical, down to warning, resolved past the resolve threshold; one outbox row per action and change; a minute evaluated twice or by two evaluators adds nothing", async () => {
    const { t, alice, org, api } = await world();
    const hook = (n: number) => ({ id: WEBHOOK_ACTION as typeof WEBHOOK_ACTION, service: "webhooks" as const, url: `https://hooks.example.com/${n}` });
    const rule = await t.store.createMetricAlert(
      org.id,
      input({
        projectId: api.id,
        timeWindow: 1,
        resolveThreshold: 2,
        triggers: [
          { label: "critical", alertThreshold: 10, actions: [hook(1), hook(2)] },
          { label: "warning", alertThreshold: 5, actions: [hook(3)] },
        ],
      }),
      alice.id,
      at(END),
    );
    const opts = { baseUrl: "https://faultline.example.com/monitor" };
    const outbox = () =>
      t.db.kysely.selectFrom("notifications").selectAll().where("source", "=", "metric_alert").where("rule_id", "=", rule.id).orderBy("id").execute();
    /** Evaluates the minute starting at `m` with `count` errors in the minute before it. */
    async function minute(m: number, count: number) {
      for (let i = 0; i < count; i++) await addEvent(t.db, api.id, at(m - MIN + i * 100));
      const second = createStore(t.db);
      // Two evaluators at once (on PostgreSQL on two connections of the pool), then the same minute once more.
      await Promise.all([evaluateMetricAlerts(t.store, { ...opts, now: m + 5000 }), evaluateMetricAlerts(second, { ...opts, now: m + 7000 })]);
      await evaluateMetricAlerts(t.store, { ...opts, now: m + 30_000 });
      return (await t.store.getMetricAlert(org.id, rule.id))!;
    }
    const base = END + 10 * MIN;
    assert.equal((await minute(base, 3)).status, "resolved");
    assert.equal((await outbox()).length, 0);
    const critical = await minute(base + MIN, 12);
    assert.equal(critical.status, "critical");
    assert.equal(critical.lastValue, 12);
    let rows = await outbox();
    assert.deepEqual(
      rows.map((r) => JSON.parse(r.action).url),
      ["https://hooks.example.com/1", "https://hooks.example.com/2"],
    );
    const payload = JSON.parse(rows[0]!.payload);
    assert.deepEqual(
      {
        kind: payload.kind,
        status: payload.status,
        value: payload.value,
        threshold: payload.threshold,
        aggregate: payload.aggregate,
        project: payload.project.slug,
        url: payload.url,
      },
      {
        kind: "metric",
        status: "critical",
        value: 12,
        threshold: 10,
        aggregate: "count()",
        project: api.slug,
        url: `https://faultline.example.com/monitor/en/orgs/${org.slug}/alerts/metric/${rule.id}`,
      },
    );
    assert.equal(rows[0]!.idempotency_key, `metric_alert:${rule.id}:critical:${at(base + MIN)}:action:0`);
    // Still above critical: no change, nothing sent.
    assert.equal((await minute(base + 2 * MIN, 11)).status, "critical");
    assert.equal((await outbox()).length, 2);
    // At the critical threshold it stays critical (it resolves strictly below, as Sentry's); below it the critical
    // trigger resolves and the warning trigger stays: warning.
    assert.equal((await minute(base + 3 * MIN, 10)).status, "critical");
    assert.equal((await minute(base + 4 * MIN, 9)).status, "warning");
    rows = await outbox();
    assert.equal(rows.length, 3);
    assert.equal(JSON.parse(rows[2]!.action).url, "https://hooks.example.com/3");
    // Below the warning threshold but not below the resolve threshold (2): hysteresis keeps it at warning.
    assert.equal((await minute(base + 5 * MIN, 3)).status, "warning");
    assert.equal((await minute(base + 6 * MIN, 2)).status, "warning");
    assert.equal((await outbox()).length, 3);
    // Below 2: resolved, told through the actions of the trigger that had fired (warning).
    assert.equal((await minute(base + 7 * MIN, 1)).status, "resolved");
    rows = await outbox();
    assert.equal(rows.length, 4);
    assert.equal(JSON.parse(rows[3]!.payload).status, "resolved");
    assert.equal(JSON.parse(rows[3]!.payload).threshold, 2);
    assert.equal(JSON.parse(rows[3]!.action).url, "https://hooks.example.com/3");
    const history = await t.store.listMetricAlertHistory(rule.id, 10);
    assert.deepEqual(
      history.map((h) => `${h.from}>${h.to}@${h.value}`),
      ["warning>resolved@1", "critical>warning@9", "resolved>critical@12"],
    );
    const values = await t.store.listMetricAlertValues(rule.id, at(base - MIN));
    assert.deepEqual(
      values.map((v) => v.value),
      [3, 12, 11, 10, 9, 3, 2, 1],
    );
  });
}
