// Metric alerts (issue 17) through the core, on SQLite: the trigger state machine, the aggregates and queries it
// accepts, and the validation every entry point shares (API, server actions), hostile input included.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextStatus, parseAggregate, parseMetricQuery, type ThresholdSpec } from "../../src/core/metric-alert-defs";
import { webhookUrlProblem } from "../../src/core/alert-rule-urls";
import { createMetricAlert, deleteMetricAlert, getMetricAlert, listMetricAlerts, updateMetricAlert } from "../../src/core/metric-alerts";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { createTeam } from "../../src/core/teams";
import { isAppError } from "../../src/core/errors";
import type { User } from "../../src/storage/ports";
import { joinByInvitation, outcome, type TestCore, testCore, uniq } from "../helpers/core";

const above: ThresholdSpec = {
  thresholdType: 0,
  resolveThreshold: null,
  triggers: [
    { label: "critical", alertThreshold: 100 },
    { label: "warning", alertThreshold: 50 },
  ],
};

describe("issue 17 metric alerts: the state machine", () => {
  test("issue 17 metric alerts: above: fires strictly past a threshold, falls to warning below critical, resolves at its trigger's threshold by default", () => {
    assert.equal(nextStatus(above, "resolved", 50), null);
    assert.deepEqual(nextStatus(above, "resolved", 51), { from: "resolved", to: "warning", trigger: "warning", threshold: 50 });
    assert.deepEqual(nextStatus(above, "resolved", 101), { from: "resolved", to: "critical", trigger: "critical", threshold: 100 });
    assert.deepEqual(nextStatus(above, "warning", 150), { from: "warning", to: "critical", trigger: "critical", threshold: 100 });
    assert.equal(nextStatus(above, "critical", 100), null);
    assert.deepEqual(nextStatus(above, "critical", 99), { from: "critical", to: "warning", trigger: "warning", threshold: 50 });
    assert.equal(nextStatus(above, "warning", 50), null);
    assert.deepEqual(nextStatus(above, "warning", 49), { from: "warning", to: "resolved", trigger: "warning", threshold: 50 });
    assert.deepEqual(nextStatus(above, "critical", 10), { from: "critical", to: "resolved", trigger: "critical", threshold: 100 });
    assert.equal(nextStatus(above, "critical", null), null, "no data judges nothing");
  });

  test("issue 17 metric alerts: an explicit resolve threshold holds the lowest trigger (hysteresis); below-type rules mirror it", () => {
    const spec: ThresholdSpec = { ...above, resolveThreshold: 20 };
    assert.deepEqual(nextStatus(spec, "critical", 30), { from: "critical", to: "warning", trigger: "warning", threshold: 50 });
    assert.equal(nextStatus(spec, "warning", 30), null);
    assert.deepEqual(nextStatus(spec, "warning", 19), { from: "warning", to: "resolved", trigger: "warning", threshold: 20 });
    const only: ThresholdSpec = { thresholdType: 0, resolveThreshold: 5, triggers: [{ label: "critical", alertThreshold: 10 }] };
    assert.equal(nextStatus(only, "critical", 7), null);
    assert.equal(nextStatus(only, "critical", 4)?.to, "resolved");
    // Crash-free sessions below 99 % critical, 99.5 % warning, resolved above 99.8 %.
    const below: ThresholdSpec = {
      thresholdType: 1,
      resolveThreshold: 99.8,
      triggers: [
        { label: "critical", alertThreshold: 99 },
        { label: "warning", alertThreshold: 99.5 },
      ],
    };
    assert.equal(nextStatus(below, "resolved", 98.2)?.to, "critical");
    assert.equal(nextStatus(below, "critical", 99.2)?.to, "warning");
    assert.equal(nextStatus(below, "warning", 99.7), null);
    assert.equal(nextStatus(below, "warning", 99.9)?.to, "resolved");
  });
});

describe("issue 17 metric alerts: aggregates, queries and webhook targets", () => {
  test("issue 17 metric alerts: Sentry's aggregate strings are read, with the dataset each needs; others are refused", () => {
    assert.equal(parseAggregate("percentage(sessions_crashed, sessions) AS _crash_rate_alert_aggregate")?.kind.kind, "crash_free_sessions");
    assert.equal(parseAggregate("percentage( users_crashed, users )")?.aggregate, "percentage(users_crashed, users) AS _crash_rate_alert_aggregate");
    assert.deepEqual(parseAggregate("p95(transaction.duration)")?.kind, { kind: "percentile", quantile: 0.95 });
    assert.deepEqual(parseAggregate("apdex(300)")?.kind, { kind: "apdex", threshold: 300 });
    assert.equal(parseAggregate("count_unique(user)")?.dataset, "events");
    for (const bad of [
      "",
      "count(",
      "percentage(sessions_crashed, users)",
      "p99(transaction.duration)",
      "apdex(0)",
      "apdex(999999)",
      "sum(x)",
      "count();drop table x",
      "a".repeat(10_000),
    ]) {
      assert.equal(parseAggregate(bad), null, bad.slice(0, 40));
    }
  });

  test("issue 17 metric alerts: queries are key:value terms the dataset knows, quoted values allowed", () => {
    assert.deepEqual(parseMetricQuery('transaction:"GET /items" release:app@1', "transactions"), [
      { key: "transaction", value: "GET /items" },
      { key: "release", value: "app@1" },
    ]);
    assert.deepEqual(parseMetricQuery("", "events"), []);
    assert.equal(typeof parseMetricQuery("transaction:x", "events"), "string");
    assert.equal(typeof parseMetricQuery("level:error level:fatal", "events"), "string");
    assert.equal(typeof parseMetricQuery("is:unresolved OR (", "events"), "string");
    assert.equal(typeof parseMetricQuery('level:"unterminated', "events"), "string");
  });

  test("issue 17 metric alerts: webhook URLs to loopback, private, link-local or non-http targets are refused", async () => {
    const resolving = (ips: string[]) => ({ resolve: async () => ips.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })) });
    const none = resolving([]);
    for (const url of [
      "http://127.0.0.1/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/",
      "http://10.1.2.3/",
      "http://192.168.0.1:8080/",
      "http://localhost:9000/",
      "http://app.localhost/",
      "http://0x7f000001/",
      "http://2130706433/",
      "http://[::ffff:127.0.0.1]/",
      "ftp://93.184.215.14/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "not a url",
    ]) {
      assert.notEqual(await webhookUrlProblem(url, none), null, url);
    }
    assert.equal(await webhookUrlProblem("https://93.184.215.14/hook", none), null);
    assert.notEqual(await webhookUrlProblem("https://internal.example/hook", resolving(["10.0.0.5"])), null);
    assert.equal(await webhookUrlProblem("https://hooks.example/hook", resolving(["93.184.215.14"])), null);
  });
});

describe("issue 17 metric alerts: the core's validation and access", () => {
  let t: TestCore;
  let owner: User;
  let org: string;
  let project: string;
  before(async () => {
    t = await testCore();
    owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "Owner" });
    org = (await createOrganization(t.as(owner), { name: uniq("Org") })).slug;
    project = (await createProject(t.as(owner), org, { name: uniq("Api"), platform: "node" })).slug;
  });
  after(async () => t.close());

  const valid = () => ({
    name: "Errors",
    aggregate: "count()",
    timeWindow: 5,
    thresholdType: 0,
    triggers: [{ label: "critical", alertThreshold: 10, actions: [] as unknown[] }],
  });

  /** The 400's field names, or the outcome when it is not a 400. */
  async function refused(input: unknown): Promise<string[] | string> {
    try {
      await createMetricAlert(t.as(owner), org, input);
      return "ok";
    } catch (err) {
      if (isAppError(err) && err.code === "bad_request") return Object.keys(err.fields ?? { _: [] });
      throw err;
    }
  }

  test("issue 17 metric alerts: a valid rule is kept in Sentry's terms, read, changed and deleted", async () => {
    const team = await createTeam(t.as(owner), org, { slug: uniq("team") });
    const rule = await createMetricAlert(t.as(owner), org, {
      ...valid(),
      aggregate: "p95(transaction.duration)",
      dataset: "generic_metrics",
      query: "transaction:/checkout",
      environment: "production",
      projects: [project],
      resolveThreshold: 500,
      triggers: [
        {
          label: "warning",
          alertThreshold: "1000",
          actions: [{ id: "sentry.mail.actions.NotifyEmailAction", targetType: "Team", targetIdentifier: String(team.id) }],
        },
        {
          label: "critical",
          alertThreshold: 2000,
          actions: [{ id: "sentry.integrations.slack.notify_action.SlackNotifyServiceAction", webhookUrl: "https://93.184.215.14/services/T/B/x" }],
        },
      ],
    });
    assert.equal(rule.dataset, "transactions");
    assert.deepEqual(
      rule.triggers.map((x) => [x.label, x.alertThreshold]),
      [
        ["critical", 2000],
        ["warning", 1000],
      ],
    );
    assert.equal((await getMetricAlert(t.as(owner), org, String(rule.id))).name, "Errors");
    const changed = await updateMetricAlert(t.as(owner), org, rule.id, { name: "Checkout slow", resolveThreshold: null });
    assert.equal(changed.name, "Checkout slow");
    assert.equal(changed.resolveThreshold, null);
    assert.equal(changed.query, "transaction:/checkout");
    assert.ok((await listMetricAlerts(t.as(owner), org)).some((r) => r.id === rule.id));
    await deleteMetricAlert(t.as(owner), org, rule.id);
    assert.equal(await outcome(() => getMetricAlert(t.as(owner), org, rule.id)), "not_found");
  });

  test("issue 17 metric alerts: bad and hostile input is a 400 naming the field", async () => {
    const v = valid();
    const cases: [unknown, string][] = [
      [null, "_"],
      [[], "_"],
      ["count()", "_"],
      [{ ...v, name: "" }, "name"],
      [{ ...v, name: "x".repeat(10_000) }, "name"],
      [{ ...v, aggregate: "sum(x)" }, "aggregate"],
      [{ ...v, aggregate: { $gt: "" } }, "aggregate"],
      [{ ...v, dataset: "transactions" }, "dataset"],
      [{ ...v, dataset: "nope" }, "dataset"],
      [{ ...v, timeWindow: 7 }, "timeWindow"],
      [{ ...v, timeWindow: "5; drop table" }, "timeWindow"],
      [{ ...v, timeWindow: 1e308 * 10 }, "timeWindow"],
      [{ ...v, thresholdType: 2 }, "thresholdType"],
      [{ ...v, query: "transaction:x" }, "query"],
      [{ ...v, query: "x".repeat(1000) }, "query"],
      [{ ...v, projects: ["a", "b"] }, "projects"],
      [{ ...v, projects: ["no-such-project"] }, "projects"],
      [{ ...v, aggregate: "count_unique(user)", environment: "production" }, "environment"],
      [{ ...v, triggers: [] }, "triggers"],
      [{ ...v, triggers: [{ label: "warning", alertThreshold: 5, actions: [] }] }, "triggers"],
      [
        {
          ...v,
          triggers: [
            { label: "critical", alertThreshold: 5, actions: [] },
            { label: "critical", alertThreshold: 6, actions: [] },
          ],
        },
        "triggers",
      ],
      [
        {
          ...v,
          triggers: [
            { label: "critical", alertThreshold: 5, actions: [] },
            { label: "warning", alertThreshold: 8, actions: [] },
          ],
        },
        "triggers",
      ],
      [{ ...v, triggers: [{ label: "critical", alertThreshold: "NaN", actions: [] }] }, "triggers.0.alertThreshold"],
      [{ ...v, triggers: [{ label: "critical", alertThreshold: 10, actions: [] }], resolveThreshold: 10 }, "resolveThreshold"],
      [{ ...v, aggregate: "failure_rate()", triggers: [{ label: "critical", alertThreshold: 5, actions: [] }] }, "triggers.0.alertThreshold"],
      [
        {
          ...v,
          triggers: [
            {
              label: "critical",
              alertThreshold: 10,
              actions: [{ id: "sentry.rules.actions.notify_event_service.NotifyEventServiceAction", url: "http://127.0.0.1:9000/hook" }],
            },
          ],
        },
        "triggers.0.actions.0.url",
      ],
      [
        {
          ...v,
          triggers: [
            {
              label: "critical",
              alertThreshold: 10,
              actions: [{ id: "sentry.integrations.discord.notify_action.DiscordNotifyServiceAction", webhookUrl: "http://169.254.169.254/" }],
            },
          ],
        },
        "triggers.0.actions.0.webhookUrl",
      ],
      [
        {
          ...v,
          triggers: [
            {
              label: "critical",
              alertThreshold: 10,
              actions: [{ id: "sentry.mail.actions.NotifyEmailAction", targetType: "Member", targetIdentifier: "someone-else" }],
            },
          ],
        },
        "triggers.0.actions.0.targetIdentifier",
      ],
      [
        { ...v, triggers: [{ label: "critical", alertThreshold: 10, actions: [{ id: "sentry.mail.actions.NotifyEmailAction", targetType: "IssueOwners" }] }] },
        "triggers.0.actions.0.targetType",
      ],
      [
        {
          ...v,
          triggers: [{ label: "critical", alertThreshold: 10, actions: [{ id: "faultline.mail.recipient", userId: "x", email: "a@b.c", locale: "en" }] }],
        },
        "triggers.0.actions.0.id",
      ],
      [
        {
          ...v,
          triggers: [
            {
              label: "critical",
              alertThreshold: 10,
              actions: Array.from({ length: 11 }, () => ({
                id: "sentry.integrations.slack.notify_action.SlackNotifyServiceAction",
                webhookUrl: "https://93.184.215.14/",
              })),
            },
          ],
        },
        "triggers.0.actions",
      ],
    ];
    for (const [input, field] of cases) {
      const r = await refused(input);
      assert.ok(
        Array.isArray(r) && r.some((f) => f === field || f.startsWith(`${field}.`)),
        `${JSON.stringify(input).slice(0, 160)} → ${JSON.stringify(r)} (expected ${field})`,
      );
    }
    assert.equal(await outcome(() => updateMetricAlert(t.as(owner), org, "99999999999999999999", {})), "not_found");
    assert.equal(await outcome(() => getMetricAlert(t.as(owner), org, "../1")), "not_found");
  });

  test("issue 17 metric alerts: viewers and members read but may not write; other organizations see nothing", async () => {
    const rule = await createMetricAlert(t.as(owner), org, valid());
    const viewer = await t.accounts.createUser({ email: `${uniq("v")}@example.com`, password: "password123", name: "Viewer" });
    const member = await t.accounts.createUser({ email: `${uniq("m")}@example.com`, password: "password123", name: "Member" });
    const outsider = await t.accounts.createUser({ email: `${uniq("x")}@example.com`, password: "password123", name: "Outsider" });
    await joinByInvitation(t, t.as(owner), org, { email: viewer.email, role: "viewer" });
    await joinByInvitation(t, t.as(owner), org, { email: member.email, role: "member" });
    for (const u of [viewer, member]) {
      assert.equal(await outcome(() => getMetricAlert(t.as(u), org, rule.id)), "ok");
      assert.equal(await outcome(() => createMetricAlert(t.as(u), org, valid())), "forbidden");
      assert.equal(await outcome(() => updateMetricAlert(t.as(u), org, rule.id, { name: "x" })), "forbidden");
      assert.equal(await outcome(() => deleteMetricAlert(t.as(u), org, rule.id)), "forbidden");
    }
    assert.equal(await outcome(() => getMetricAlert(t.as(outsider), org, rule.id)), "not_found");
    assert.equal(await outcome(() => listMetricAlerts(t.as(outsider), org)), "not_found");
  });
});
