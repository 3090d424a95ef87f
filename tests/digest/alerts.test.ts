// Issue alert rules evaluated by the digest (src/digest/alerts.ts) through writeBatch, on SQLite and on a real
// PostgreSQL: outbox rows written in the batch's transaction, one per action; the frequency limit per rule and issue
// across batches; "first time only" across a restart; regressions and issues back from ignored; environments.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { EVENT_FREQUENCY, FIRST_SEEN, LEVEL_FILTER, REAPPEARED, REGRESSION, type RuleInput, USER_FREQUENCY } from "../../src/core/alert-rule-schema";
import { updateIssue } from "../../src/core/issues";
import { type BatchResult, writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { OpenDbOptions } from "../../src/storage/db";
import { type IssueNotificationPayload, SLACK_ACTION, WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import type { Store, User } from "../../src/storage/ports";
import { type TestCore, testCore, uniq } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";

const LINKS = { links: { base: "https://faultline.example.com/monitor" } };
const HOOK = { id: WEBHOOK_ACTION, service: "webhooks", url: "https://hooks.example.com/in" } as const;
const SLACK = { id: SLACK_ACTION, webhookUrl: "https://hooks.slack.example.com/services/x" } as const;

const rule = (over: Partial<RuleInput>): RuleInput => ({
  name: "Rule",
  environment: null,
  actionMatch: "all",
  filterMatch: "all",
  frequency: 30,
  conditions: [{ id: FIRST_SEEN }],
  filters: [],
  actions: [HOOK],
  status: "active",
  ...over,
});

function event(projectId: number, hash: string, over: Partial<DigestedEvent> = {}): DigestedEvent {
  return {
    projectId,
    eventId: randomBytes(16).toString("hex"),
    type: "error",
    receivedAt: new Date().toISOString(),
    timestamp: new Date().toISOString(),
    platform: "python",
    level: "error",
    title: "ValueError: boom",
    message: "boom",
    culprit: "app.views",
    release: null,
    environment: "production",
    size: 2,
    data: "{}",
    category: "error",
    grouping: { config: "newstyle:2023-01-11", hashes: [hash] },
    metadata: "{}",
    userKey: null,
    tags: [["url", "https://shop.example.com/cart"]],
    ...over,
  };
}

const dialects: [string, () => Promise<{ options: OpenDbOptions; drop: () => Promise<void> }>][] = [
  [
    "SQLite",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "faultline-alerts-"));
      return { options: { dialect: "sqlite", file: path.join(dir, "db.sqlite3") }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const fresh = await freshPgDatabase(`alerts_${randomBytes(4).toString("hex")}`);
      return { options: { dialect: "postgres", url: fresh.url }, drop: fresh.drop };
    },
  ],
];

for (const [name, open] of dialects) {
  describe(`issue 17 rules: evaluation in the digest (${name})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    async function world(): Promise<{ t: TestCore; options: OpenDbOptions; owner: User; projectId: number; orgSlug: string; projectSlug: string }> {
      const { options, drop } = await open();
      const t = await testCore(options);
      cleanups.push(drop, () => t.close());
      const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "Owner" });
      const org = await t.store.createOrganization({ slug: uniq("org"), name: "Org", ownerUserId: owner.id });
      const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("shop"), name: "Shop", platform: "python" });
      return { t, options, owner, projectId: project.id, orgSlug: org.slug, projectSlug: project.slug };
    }

    const batch = (store: Store, events: DigestedEvent[]): Promise<BatchResult> =>
      writeBatch(store, { spoolId: "s", position: 1, rawItems: [], outcomes: [], events }, LINKS);

    async function outbox(t: TestCore) {
      const rows = await t.db.kysely.selectFrom("notifications").selectAll().orderBy("id").execute();
      return rows.map((r) => ({ ...r, action: JSON.parse(r.action) as unknown, payload: JSON.parse(r.payload) as IssueNotificationPayload }));
    }

    test("a new issue fires once per action, with the issue, the event and a link; later events and a replayed batch add nothing", async () => {
      const { t, projectId, orgSlug, projectSlug } = await world();
      const r = await t.store.createAlertRule({ ...rule({ name: "New issues", actions: [HOOK, SLACK] }), projectId, createdBy: null });
      const first = [event(projectId, "a"), event(projectId, "a")];
      const result = await batch(t.store, first);
      assert.equal(result.notifications, 2);
      const rows = await outbox(t);
      assert.deepEqual(
        rows.map((n) => [n.source, n.rule_id, n.status, n.action]),
        [
          ["issue_rule", r.id, "pending", HOOK],
          ["issue_rule", r.id, "pending", SLACK],
        ],
      );
      const p = rows[0]!.payload;
      assert.deepEqual(
        [
          p.kind,
          p.trigger,
          p.ruleName,
          p.organization.slug,
          p.project.slug,
          p.issue.shortId,
          p.issue.count,
          p.event?.eventId,
          p.event?.url,
          p.event?.environment,
        ],
        [
          "issue",
          "first_seen",
          "New issues",
          orgSlug,
          projectSlug,
          `${projectSlug.toUpperCase()}-1`,
          2,
          first[0]!.eventId,
          "https://shop.example.com/cart",
          "production",
        ],
      );
      assert.equal(p.issueUrl, `https://faultline.example.com/monitor/en/orgs/${orgSlug}/issues/${p.issue.id}`);
      assert.equal(rows[0]!.idempotency_key, `rule:${r.id}:issue:${p.issue.id}:event:${first[0]!.eventId}:action:0`);
      assert.equal((await batch(t.store, [event(projectId, "a")])).notifications, 0, "not new any more");
      assert.equal((await batch(t.store, first)).notifications, 0, "the same batch again stores nothing and decides nothing");
      assert.equal((await outbox(t)).length, 2);
    });

    test("frequency: 500 events of one issue in five batches give one notification; another issue has its own limit", async () => {
      const { t, projectId } = await world();
      await t.store.createAlertRule({
        ...rule({ conditions: [{ id: EVENT_FREQUENCY, value: 10, interval: "1m", comparisonType: "count", firstTimeOnly: false }], frequency: 30 }),
        projectId,
        createdBy: null,
      });
      let notified = 0;
      for (let b = 0; b < 5; b++)
        notified += (
          await batch(
            t.store,
            Array.from({ length: 100 }, () => event(projectId, "busy")),
          )
        ).notifications;
      assert.equal(notified, 1);
      assert.equal((await outbox(t)).length, 1);
      assert.equal((await outbox(t))[0]!.payload.trigger, "event_frequency");
      assert.equal(
        (
          await batch(
            t.store,
            Array.from({ length: 10 }, () => event(projectId, "quiet")),
          )
        ).notifications,
        0,
        "10 events are not more than 10",
      );
      assert.equal((await batch(t.store, [event(projectId, "quiet")])).notifications, 1, "the 11th is");
    });

    test("frequency: once the interval has passed since the rule last fired for the issue, it fires again", async () => {
      const { t, projectId } = await world();
      const r = await t.store.createAlertRule({
        ...rule({ conditions: [{ id: EVENT_FREQUENCY, value: 1, interval: "1h", comparisonType: "count", firstTimeOnly: false }], frequency: 5 }),
        projectId,
        createdBy: null,
      });
      assert.equal((await batch(t.store, [event(projectId, "x"), event(projectId, "x")])).notifications, 1);
      assert.equal((await batch(t.store, [event(projectId, "x")])).notifications, 0);
      // The rule last fired 6 minutes ago (its frequency is 5).
      await t.db.kysely
        .updateTable("alert_rule_issues")
        .set({ last_fired_at: new Date(Date.now() - 6 * 60_000).toISOString() })
        .where("rule_id", "=", r.id)
        .execute();
      assert.equal((await batch(t.store, [event(projectId, "x")])).notifications, 1);
    });

    test("first time only: fires once ever per issue, also after a restart (a new store on the same database)", async () => {
      const { t, options, projectId } = await world();
      const once = await t.store.createAlertRule({
        ...rule({ name: "once", conditions: [{ id: EVENT_FREQUENCY, value: 2, interval: "1h", comparisonType: "count", firstTimeOnly: true }], frequency: 5 }),
        projectId,
        createdBy: null,
      });
      const every = await t.store.createAlertRule({
        ...rule({
          name: "every",
          conditions: [{ id: EVENT_FREQUENCY, value: 2, interval: "1h", comparisonType: "count", firstTimeOnly: false }],
          frequency: 5,
        }),
        projectId,
        createdBy: null,
      });
      assert.equal(
        (
          await batch(
            t.store,
            Array.from({ length: 3 }, () => event(projectId, "y")),
          )
        ).notifications,
        2,
      );
      const restarted = await testCore(options);
      cleanups.push(() => restarted.close());
      // Both rules' frequency has passed.
      await restarted.db.kysely
        .updateTable("alert_rule_issues")
        .set({ last_fired_at: new Date(Date.now() - 60 * 60_000).toISOString() })
        .execute();
      await batch(
        restarted.store,
        Array.from({ length: 3 }, () => event(projectId, "y")),
      );
      const rows = await outbox(restarted);
      assert.deepEqual(
        rows.map((n) => n.rule_id),
        [once.id, every.id, every.id],
      );
    });

    test("unique users: more than N users in the interval", async () => {
      const { t, projectId } = await world();
      await t.store.createAlertRule({
        ...rule({ conditions: [{ id: USER_FREQUENCY, value: 2, interval: "5m", comparisonType: "count", firstTimeOnly: false }] }),
        projectId,
        createdBy: null,
      });
      assert.equal(
        (
          await batch(t.store, [
            event(projectId, "u", { userKey: "id:1" }),
            event(projectId, "u", { userKey: "id:2" }),
            event(projectId, "u", { userKey: "id:1" }),
          ])
        ).notifications,
        0,
      );
      assert.equal((await batch(t.store, [event(projectId, "u", { userKey: "id:3" })])).notifications, 1);
      assert.equal((await outbox(t))[0]!.payload.trigger, "user_frequency");
    });

    test("a resolved issue that regresses, and an ignored one that comes back, fire their conditions", async () => {
      const { t, owner, projectId } = await world();
      await t.store.createAlertRule({
        ...rule({ name: "back", actionMatch: "any", conditions: [{ id: REGRESSION }, { id: REAPPEARED }] }),
        projectId,
        createdBy: null,
      });
      await batch(t.store, [event(projectId, "r")]);
      await batch(t.store, [event(projectId, "i")]);
      const issues = (await t.store.listIssues(projectId, { page: { limit: 10 } })).items;
      const resolved = issues.find((i) => i.title && i.shortId === 1)!;
      const ignored = issues.find((i) => i.shortId === 2)!;
      await updateIssue(t.as(owner), resolved.id, { status: "resolved" });
      await updateIssue(t.as(owner), ignored.id, { status: "ignored", statusDetails: { ignoreCount: 1 } });
      assert.equal((await outbox(t)).length, 0);
      const regressing = event(projectId, "r");
      await batch(t.store, [regressing, event(projectId, "i"), event(projectId, "i"), event(projectId, "i")]);
      const rows = await outbox(t);
      assert.deepEqual(
        rows.map((n) => [n.issue_id, n.payload.trigger]).sort(),
        [
          [resolved.id, "regression"],
          [ignored.id, "reappeared"],
        ].sort(),
      );
      assert.equal(rows.find((n) => n.issue_id === resolved.id)!.payload.event?.eventId, regressing.eventId);
    });

    test("environment and filters: only events of the rule's environment, and only those its filters pass, fire it", async () => {
      const { t, projectId } = await world();
      await t.store.createAlertRule({
        ...rule({ environment: "production", filters: [{ id: LEVEL_FILTER, match: "gte", level: "50" }] }),
        projectId,
        createdBy: null,
      });
      assert.equal((await batch(t.store, [event(projectId, "s", { environment: "staging", level: "fatal" })])).notifications, 0, "staging");
      assert.equal((await batch(t.store, [event(projectId, "e", { level: "error" })])).notifications, 0, "below fatal");
      const fatal = event(projectId, "f", { level: "fatal" });
      assert.equal((await batch(t.store, [fatal])).notifications, 1);
      assert.equal((await outbox(t))[0]!.payload.event?.eventId, fatal.eventId);
    });

    test("a disabled rule, or a changed one, is read afresh by the same digest (the rule cache follows every change)", async () => {
      const { t, projectId } = await world();
      const r = await t.store.createAlertRule({ ...rule({ status: "disabled" }), projectId, createdBy: null });
      assert.equal((await batch(t.store, [event(projectId, "d1")])).notifications, 0);
      await t.store.updateAlertRule(projectId, r.id, rule({ status: "active" }));
      assert.equal((await batch(t.store, [event(projectId, "d2")])).notifications, 1);
      await t.store.updateAlertRule(projectId, r.id, rule({ actions: [HOOK, SLACK] }));
      assert.equal((await batch(t.store, [event(projectId, "d3")])).notifications, 2);
      await t.store.deleteAlertRule(projectId, r.id);
      assert.equal((await batch(t.store, [event(projectId, "d4")])).notifications, 0);
    });

    test("50 rules in a project: each decides for itself in one batch", async () => {
      const { t, projectId } = await world();
      for (let i = 0; i < 50; i++) {
        await t.store.createAlertRule({
          ...rule({ name: `r${i}`, conditions: [{ id: EVENT_FREQUENCY, value: i, interval: "1h", comparisonType: "count", firstTimeOnly: false }] }),
          projectId,
          createdBy: null,
        });
      }
      assert.equal(
        (
          await batch(
            t.store,
            Array.from({ length: 20 }, () => event(projectId, "many")),
          )
        ).notifications,
        20,
        "rules with value 0…19 pass with 20 events",
      );
    });
  });
}
