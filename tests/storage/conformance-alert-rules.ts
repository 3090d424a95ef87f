// Issue alert rules (storage/alert-ports.ts), run by conformance.ts on each dialect: rules stored and read back as
// written, the organization's member setting, each project's webhook secret, the digest's reads and writes of rule
// state (fired once stays fired), and a rule's history with its delivery attempts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EVENT_FREQUENCY, FIRST_SEEN, LEVEL_FILTER, type RuleInput, TAGGED_FILTER } from "../../src/core/alert-rule-schema";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import { type NotificationPayload, WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

const RULE: RuleInput = {
  name: "Löud errors",
  environment: "production",
  actionMatch: "any",
  filterMatch: "all",
  frequency: 30,
  conditions: [{ id: FIRST_SEEN }, { id: EVENT_FREQUENCY, value: 100, interval: "1h", comparisonType: "count", firstTimeOnly: true }],
  filters: [
    { id: LEVEL_FILTER, match: "gte", level: "40" },
    { id: TAGGED_FILTER, key: "release", match: "sw", value: "app@" },
  ],
  actions: [{ id: WEBHOOK_ACTION, service: "webhooks", url: "https://hooks.example.com/x" }],
  status: "active",
};

const event = (projectId: number): DigestedEvent => ({
  projectId,
  eventId: crypto.randomUUID().replace(/-/g, ""),
  type: "error",
  receivedAt: new Date().toISOString(),
  timestamp: new Date().toISOString(),
  platform: "python",
  level: "error",
  title: "E: x",
  message: "",
  culprit: "",
  release: null,
  environment: null,
  size: 2,
  data: "{}",
  category: "error",
  grouping: { config: "c", hashes: [uniq("h")] },
  metadata: "{}",
  userKey: null,
  tags: [],
});

export function alertRuleConformance(get: () => Fixture) {
  test("issue 17 rules: stored and read back as written, listed oldest first, changed, deleted; scoped to their project", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("ar"), name: "AR", ownerUserId: alice.id });
    const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    const other = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "Q", platform: null });
    const a = await t.store.createAlertRule({ ...RULE, projectId: project.id, createdBy: alice.id });
    const b = await t.store.createAlertRule({ ...RULE, name: "Second", environment: null, projectId: project.id, createdBy: null });
    assert.deepEqual(
      { ...a, id: 0, createdAt: "", updatedAt: "" },
      { ...RULE, id: 0, projectId: project.id, createdBy: alice.id, createdAt: "", updatedAt: "" },
    );
    assert.match(a.createdAt, /^\d{4}-\d{2}-\d{2}T/);
    assert.deepEqual(
      (await t.store.listAlertRules(project.id)).map((r) => r.name),
      ["Löud errors", "Second"],
    );
    assert.equal(await t.store.countAlertRules(project.id), 2);
    assert.equal(await t.store.getAlertRule(other.id, a.id), null, "another project's rule is not found");
    const changed = await t.store.updateAlertRule(project.id, a.id, { ...RULE, frequency: 60, status: "disabled" });
    assert.deepEqual([changed?.frequency, changed?.status, changed?.createdBy], [60, "disabled", alice.id]);
    assert.equal(await t.store.updateAlertRule(other.id, a.id, RULE), null);
    assert.equal(await t.store.deleteAlertRule(other.id, b.id), false);
    assert.equal(await t.store.deleteAlertRule(project.id, b.id), true);
    assert.deepEqual(
      (await t.store.listAlertRules(project.id)).map((r) => r.id),
      [a.id],
    );
  });

  test("issue 17 rules: members may write alerts only when the organization says so (off by default); every project has a webhook secret", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("ar"), name: "AR", ownerUserId: alice.id });
    assert.equal(await t.store.alertsMemberWrite(org.id), false);
    await t.store.setAlertsMemberWrite(org.id, true);
    assert.equal(await t.store.alertsMemberWrite(org.id), true);
    await t.store.setAlertsMemberWrite(org.id, false);
    assert.equal(await t.store.alertsMemberWrite(org.id), false);
    const p1 = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    const p2 = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "Q", platform: null });
    const secrets = await t.db.kysely.selectFrom("projects").select(["id", "webhook_secret"]).where("id", "in", [p1.id, p2.id]).execute();
    for (const s of secrets) assert.match(s.webhook_secret ?? "", /^[0-9a-f]{64}$/);
    assert.notEqual(secrets[0]!.webhook_secret, secrets[1]!.webhook_secret);
  });

  test("issue 17 rules: the digest's rule state per rule and issue: last fired moves, fired once stays; versions move with every change", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("ar"), name: "AR", ownerUserId: alice.id });
    const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: "python" });
    await writeBatch(
      t.store,
      { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events: [event(project.id)] },
      { links: { base: "http://x" } },
    );
    const issueId = (await t.store.listIssues(project.id, { page: { limit: 1 } })).items[0]!.id;
    const rule = await t.store.createAlertRule({ ...RULE, projectId: project.id, createdBy: null });
    const before = await t.store.digestTransaction((tx) => tx.alertProjects([project.id, 999_999_999]));
    assert.deepEqual([...before.keys()], [project.id]);
    assert.deepEqual(
      { ...before.get(project.id)!, version: "" },
      {
        version: "",
        organization: { id: org.id, slug: org.slug, name: "AR" },
        project: { id: project.id, slug: project.slug, name: "P", platform: "python" },
        activeRules: 1,
      },
    );
    await t.store.digestTransaction(async (tx) => {
      assert.deepEqual(
        (await tx.activeAlertRules(project.id)).map((r) => r.id),
        [rule.id],
      );
      await tx.markRulesFired([{ ruleId: rule.id, issueId, firedAt: "2026-01-01T00:00:00.000Z", firedOnce: true }]);
      await tx.markRulesFired([{ ruleId: rule.id, issueId, firedAt: "2026-01-02T00:00:00.000Z", firedOnce: false }]);
      assert.deepEqual(
        [...(await tx.ruleIssueStates([rule.id], [issueId])).entries()],
        [[`${rule.id}:${issueId}`, { lastFiredAt: "2026-01-02T00:00:00.000Z", firedOnce: true }]],
      );
      const facts = (await tx.alertIssueFacts([issueId])).get(issueId)!;
      assert.deepEqual([facts.timesSeen, facts.assigneeId, facts.status], [1, null, "unresolved"]);
      assert.equal(await tx.latestRelease(project.id), null);
    });
    await t.store.updateAlertRule(project.id, rule.id, { ...RULE, status: "disabled" });
    const after = await t.store.digestTransaction((tx) => tx.alertProjects([project.id]));
    assert.notEqual(after.get(project.id)!.version, before.get(project.id)!.version);
    assert.equal(after.get(project.id)!.activeRules, 0);
    await t.store.upsertRelease({ organizationId: org.id, version: "app@1.0.0", projectIds: [project.id], createdAt: "2026-01-01T00:00:00.000Z" });
    await t.store.upsertRelease({ organizationId: org.id, version: "app@2.0.0", projectIds: [project.id], createdAt: "2026-02-01T00:00:00.000Z" });
    assert.equal(await t.store.digestTransaction((tx) => tx.latestRelease(project.id)), "app@2.0.0");
  });

  test("issue 17 rules: a rule's history lists its notifications newest first with their attempts; failing ones are listed for the project", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("ar"), name: "AR", ownerUserId: alice.id });
    const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    const rule = await t.store.createAlertRule({ ...RULE, projectId: project.id, createdBy: null });
    const payload: NotificationPayload = {
      kind: "summary",
      organization: { id: org.id, slug: org.slug, name: "AR" },
      from: "",
      to: "",
      newIssues: 0,
      events: 0,
      topIssues: [],
      crashFreeSessions: null,
      url: "",
    };
    const row = (key: string, createdAt: string) => ({
      organizationId: org.id,
      projectId: project.id,
      source: "issue_rule" as const,
      ruleId: rule.id,
      issueId: null,
      action: RULE.actions[0]!,
      payload,
      idempotencyKey: `${key}-${uniq("k")}`,
      createdAt,
    });
    assert.equal(await t.store.enqueueOutside([row("a", "2026-01-01T00:00:00.000Z"), row("b", "2026-01-02T00:00:00.000Z")]), 2);
    const [newest, oldest] = await t.store.ruleHistory(project.id, rule.id, 10);
    assert.ok(newest && oldest && newest.id > oldest.id);
    await t.db.kysely
      .insertInto("notification_attempts")
      .values({
        notification_id: newest.id,
        attempted_at: "2026-01-02T00:00:01.000Z",
        duration_ms: 12,
        target: "https://hooks.example.com/x",
        status_code: 500,
        ok: t.db.dialect === "sqlite" ? 0 : false,
        error: "HTTP 500",
        response_excerpt: "boom",
      })
      .execute();
    await t.db.kysely.updateTable("notifications").set({ last_error: "HTTP 500", attempts: 1 }).where("id", "=", newest.id).execute();
    const history = await t.store.ruleHistory(project.id, rule.id, 10);
    assert.deepEqual(
      history[0]!.attemptList.map((a) => [a.statusCode, a.ok, a.error, a.responseExcerpt, a.durationMs]),
      [[500, false, "HTTP 500", "boom", 12]],
    );
    assert.deepEqual(history[0]!.action, RULE.actions[0]);
    assert.deepEqual(
      (await t.store.failingNotifications(project.id, 10)).map((n) => n.id),
      [newest.id],
    );
    assert.deepEqual(await t.store.ruleHistory(project.id, rule.id + 1_000_000, 10), []);
  });
}
