// Issue alert rules on new user feedback (issue 19; src/digest/feedback-alerts.ts) through writeBatch and the
// user-feedback API, on SQLite and on a real PostgreSQL: each new feedback is a new issue of category 6 (Sentry's
// GroupCategory FEEDBACK), so the default rule fires once per feedback; IssueCategoryFilter "1" keeps feedback out
// and "6" keeps errors out; a replayed batch and a repeated report add nothing; the rule's environment, frequency
// conditions and filters read what feedback has; hostile feedback renders within every service's limits.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import {
  AGE_FILTER,
  ASSIGNED_FILTER,
  EVENT_FREQUENCY,
  FIRST_SEEN,
  ISSUE_CATEGORY_FILTER,
  LEVEL_FILTER,
  REGRESSION,
  type RuleInput,
  TAGGED_FILTER,
} from "../../src/core/alert-rule-schema";
import { submitUserFeedback } from "../../src/core/feedback-submit";
import { type DigestBatch, writeBatch } from "../../src/digest/commit";
import { feedbackOfEvent, feedbackOfUserReport } from "../../src/digest/feedback";
import type { DigestedEvent } from "../../src/digest/items";
import { renderDiscord } from "../../src/notify/render-discord";
import { renderEmail } from "../../src/notify/render-email";
import { renderSlack } from "../../src/notify/render-slack";
import { renderTeams } from "../../src/notify/render-teams";
import { renderWebhook } from "../../src/notify/render-webhook";
import { UNAVAILABLE_MAILER } from "../../src/notify/mailer";
import { createSender } from "../../src/notify/sender";
import { senderStore } from "../../src/storage/kysely/notifications";
import type { OpenDbOptions } from "../../src/storage/db";
import { type FeedbackNotificationPayload, type NotificationPayload, WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import { type TestCore, testCore, uniq } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";
import { receiver } from "../notify/fixtures";

const LINKS = { links: { base: "https://faultline.example.com/monitor" } };
const HOOK = { id: WEBHOOK_ACTION, service: "webhooks", url: "https://hooks.example.com/in" } as const;
const newId = () => randomBytes(16).toString("hex");

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

function errorEvent(projectId: number, over: Partial<DigestedEvent> = {}): DigestedEvent {
  const now = new Date().toISOString();
  return {
    projectId,
    eventId: newId(),
    type: "error",
    receivedAt: now,
    timestamp: now,
    platform: "python",
    level: "error",
    title: "ValueError: boom",
    message: "boom",
    culprit: "app.views",
    release: "shop@2.0",
    environment: "production",
    size: 2,
    data: "{}",
    category: "error",
    grouping: { config: "newstyle:2023-01-11", hashes: [newId()] },
    metadata: "{}",
    userKey: null,
    tags: [["environment", "production"]],
    ...over,
  };
}

/** A feedback event as the digest hands it over: no issue of its own, its feedback read from contexts.feedback. */
function feedbackEvent(projectId: number, message: string, over: { associated?: string | null; environment?: string; name?: string } = {}): DigestedEvent {
  const eventId = newId();
  const now = new Date().toISOString();
  const environment = over.environment ?? "production";
  const event = {
    event_id: eventId,
    type: "feedback",
    environment,
    release: "shop@2.0",
    tags: [["browser.name", "Firefox"]],
    contexts: {
      feedback: {
        message,
        contact_email: "jane@example.com",
        name: over.name ?? "Jane",
        url: "https://shop.example/cart",
        associated_event_id: over.associated ?? null,
        source: "widget",
      },
    },
  };
  return {
    // The event's own message as normalization leaves it (no NUL); its feedback context as the SDK sent it.
    ...errorEvent(projectId, {
      eventId,
      type: "feedback",
      level: "info",
      title: "User Feedback",
      message: message.replace(/\u0000/g, "").slice(0, 8192),
      category: "feedback",
      environment,
    }),
    grouping: null,
    data: JSON.stringify(event),
    feedback: feedbackOfEvent(event, projectId, eventId, now),
  };
}

const dialects: [string, () => Promise<{ options: OpenDbOptions; drop: () => Promise<void> }>][] = [
  [
    "SQLite",
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "faultline-fb-alerts-"));
      return { options: { dialect: "sqlite", file: path.join(dir, "db.sqlite3") }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const fresh = await freshPgDatabase(`fb_alerts_${randomBytes(4).toString("hex")}`);
      return { options: { dialect: "postgres", url: fresh.url }, drop: fresh.drop };
    },
  ],
];

for (const [name, open] of dialects) {
  describe(`issue 19 feedback fires alert rules (${name})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const c of cleanups.reverse()) await c();
    });

    async function world() {
      const { options, drop } = await open();
      const t = await testCore(options);
      cleanups.push(drop, () => t.close());
      const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "Owner" });
      const org = await t.store.createOrganization({ slug: uniq("org"), name: "Org", ownerUserId: owner.id });
      const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("shop"), name: "Shop", platform: "javascript" });
      return { t, projectId: project.id, orgSlug: org.slug, projectSlug: project.slug };
    }

    let position = 0;
    const batch = (t: TestCore, parts: Partial<DigestBatch>) =>
      writeBatch(t.store, { spoolId: "s", position: ++position, rawItems: [], outcomes: [], events: [], ...parts }, LINKS);

    async function outbox(t: TestCore) {
      const rows = await t.db.kysely.selectFrom("notifications").selectAll().orderBy("id").execute();
      return rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as NotificationPayload }));
    }
    const feedbackRows = async (t: TestCore) => (await outbox(t)).filter((r) => r.payload.kind === "feedback");

    test("the default rule (a new issue is created) fires once per feedback, with the feedback, its linked issue and a link to the inbox", async () => {
      const { t, projectId, orgSlug } = await world();
      const r = await t.store.createAlertRule({ ...rule({ name: "Every new issue" }), projectId, createdBy: null });
      const error = errorEvent(projectId);
      await batch(t, { events: [error] });
      assert.equal((await outbox(t)).length, 1, "the error's new issue");
      const result = await batch(t, {
        events: [feedbackEvent(projectId, "The pay button\nspins forever", { associated: error.eventId }), feedbackEvent(projectId, "Love it")],
      });
      assert.equal(result.notifications, 2);
      const rows = await feedbackRows(t);
      assert.equal(rows.length, 2, "one per feedback: two feedbacks are two issues, never merged by the frequency limit");
      const p = rows[0]!.payload as FeedbackNotificationPayload;
      assert.equal(rows[0]!.rule_id, r.id);
      assert.equal(rows[0]!.issue_id, null);
      assert.match(rows[0]!.idempotency_key, new RegExp(`^rule:${r.id}:feedback:${p.feedback.id}:action:0$`));
      assert.equal(p.feedback.message, "The pay button\nspins forever");
      assert.deepEqual(
        [p.feedback.name, p.feedback.email, p.feedback.url, p.feedback.source],
        ["Jane", "jane@example.com", "https://shop.example/cart", "feedback"],
      );
      assert.deepEqual([p.feedback.environment, p.feedback.release], ["production", "shop@2.0"]);
      assert.equal(p.feedbackUrl, `https://faultline.example.com/monitor/en/orgs/${orgSlug}/feedback/${p.feedback.id}`);
      assert.ok(p.issue && p.issue.title === "ValueError: boom" && p.issue.url.endsWith(`/issues/${p.issue.id}`), "the associated event's issue");
      assert.equal((rows[1]!.payload as FeedbackNotificationPayload).issue, null);
      // Written again (a crash before the spool position was saved): nothing new.
      const again = await batch(t, { events: [], feedback: [] });
      assert.equal(again.notifications, 0);
      assert.equal((await feedbackRows(t)).length, 2);
    });

    test("a feedback digested before its event fires without an issue, and the notification names the issue if it is linked by the time it is sent", async () => {
      // An SDK sends the error and the feedback about it as two envelopes side by side: either may be digested first.
      const { t, projectId } = await world();
      const hook = await receiver(0);
      cleanups.push(() => hook.close());
      await senderStore({ db: t.db.kysely, dialect: t.db.dialect }).setAllowedHostsSetting("127.0.0.1");
      await t.store.createAlertRule({
        ...rule({ name: "Feedback", filters: [{ id: ISSUE_CATEGORY_FILTER, value: "6" }], actions: [{ ...HOOK, url: hook.url("/fb") }] }),
        projectId,
        createdBy: null,
      });
      const error = errorEvent(projectId);
      assert.equal((await batch(t, { events: [feedbackEvent(projectId, "Nothing happens", { associated: error.eventId })] })).notifications, 1);
      const [decided] = await feedbackRows(t);
      assert.equal((decided!.payload as FeedbackNotificationPayload).issue, null, "decided before the event was stored");
      await batch(t, { events: [error] });
      const sender = createSender({ store: senderStore({ db: t.db.kysely, dialect: t.db.dialect }), mailer: UNAVAILABLE_MAILER, log: () => undefined });
      assert.equal(await sender.runOnce(), 1);
      assert.equal(hook.receipts.length, 1);
      const body = JSON.parse(hook.receipts[0]!.body.toString("utf8")) as {
        message: string;
        linked_issue: { title: string; url: string; short_id: string } | null;
      };
      assert.equal(body.message, "Nothing happens");
      assert.ok(body.linked_issue, "the link made by the error's batch is read when the notification is sent");
      assert.equal(body.linked_issue.title, "ValueError: boom");
      assert.match(body.linked_issue.url, /^https:\/\/faultline\.example\.com\/monitor\/en\/orgs\/[^/]+\/issues\/\d+$/);
      assert.match(body.linked_issue.short_id, /^[A-Z0-9-]+-[A-Z0-9]+$/);
    });

    test("IssueCategoryFilter: 1 keeps feedback out, 6 keeps errors out", async () => {
      const { t, projectId } = await world();
      const errorsOnly = await t.store.createAlertRule({
        ...rule({ name: "errors", filters: [{ id: ISSUE_CATEGORY_FILTER, value: "1" }] }),
        projectId,
        createdBy: null,
      });
      const feedbackOnly = await t.store.createAlertRule({
        ...rule({ name: "fb", filters: [{ id: ISSUE_CATEGORY_FILTER, value: "6" }] }),
        projectId,
        createdBy: null,
      });
      await batch(t, { events: [errorEvent(projectId), feedbackEvent(projectId, "hello")] });
      const rows = await outbox(t);
      assert.deepEqual(rows.map((r) => [r.rule_id, r.payload.kind]).sort(), [
        [errorsOnly.id, "issue"],
        [feedbackOnly.id, "feedback"],
      ]);
    });

    test("a user report fires once; sent again for the same event it replaces the text and fires nothing; it takes its stored event's environment", async () => {
      const { t, projectId } = await world();
      await t.store.createAlertRule({ ...rule({ environment: "staging" }), projectId, createdBy: null });
      const error = errorEvent(projectId, { environment: "staging", tags: [["environment", "staging"]] });
      await batch(t, { events: [error] });
      const report = (comments: string) =>
        feedbackOfUserReport({ event_id: error.eventId, name: "Pat", email: "pat@example.com", comments }, projectId, new Date().toISOString(), "user_report");
      assert.equal((await batch(t, { feedback: [report("first words")] })).notifications, 1);
      assert.equal((await batch(t, { feedback: [report("second words")] })).notifications, 0);
      const [row] = await feedbackRows(t);
      const p = row!.payload as FeedbackNotificationPayload;
      assert.deepEqual([p.feedback.source, p.feedback.message, p.feedback.environment], ["user_report", "first words", "staging"]);
      // Feedback of another environment does not fire a rule of this one.
      assert.equal((await batch(t, { events: [feedbackEvent(projectId, "prod one")] })).notifications, 0);
    });

    test("conditions and filters read what feedback has: never a regression, one event, level info, its tags, age 0, nobody assigned", async () => {
      const { t, projectId } = await world();
      const make = (n: string, over: Partial<RuleInput>) => t.store.createAlertRule({ ...rule({ name: n, ...over }), projectId, createdBy: null });
      const fire = [
        await make("more than 0 events", { conditions: [{ id: EVENT_FREQUENCY, value: 0, interval: "1h", comparisonType: "count", firstTimeOnly: true }] }),
        await make("level info", { filters: [{ id: LEVEL_FILTER, match: "eq", level: "20" }] }),
        await make("browser tag", { filters: [{ id: TAGGED_FILTER, key: "browser.name", match: "eq", value: "firefox" }] }),
        await make("newer than 1 hour", { filters: [{ id: AGE_FILTER, comparison_type: "newer", value: 1, time: "hour" }] }),
        await make("unassigned", { filters: [{ id: ASSIGNED_FILTER, targetType: "Unassigned", targetIdentifier: null }] }),
        await make("regression or new", { actionMatch: "any", conditions: [{ id: REGRESSION }, { id: FIRST_SEEN }] }),
      ];
      await make("regression", { conditions: [{ id: REGRESSION }] });
      await make("more than 1 event", { conditions: [{ id: EVENT_FREQUENCY, value: 1, interval: "1h", comparisonType: "count", firstTimeOnly: false }] });
      await make("level error", { filters: [{ id: LEVEL_FILTER, match: "gte", level: "40" }] });
      await make("older than 1 minute", { filters: [{ id: AGE_FILTER, comparison_type: "older", value: 1, time: "minute" }] });
      await make("disabled", { status: "disabled" });
      await batch(t, { events: [feedbackEvent(projectId, "tags and all")] });
      assert.deepEqual(
        (await feedbackRows(t)).map((r) => r.rule_id).sort((a, b) => a! - b!),
        fire.map((r) => r.id),
      );
    });

    test("the user-feedback API's report fires the rules in its own transaction, once", async () => {
      const { t, projectId, orgSlug, projectSlug } = await world();
      await t.store.createAlertRule({ ...rule({}), projectId, createdBy: null });
      const owner = (await t.store.listMembers((await t.store.getOrganizationBySlug(orgSlug))!.id))[0]!;
      const ctx = t.as((await t.store.getUserById(owner.userId))!);
      const body = { event_id: newId(), name: "Ann", email: "ann@example.com", comments: "via the API" };
      const saved = await submitUserFeedback(t.store, { ctx }, orgSlug, projectSlug, body);
      await submitUserFeedback(t.store, { ctx }, orgSlug, projectSlug, { ...body, comments: "again" });
      const rows = await feedbackRows(t);
      assert.equal(rows.length, 1);
      const p = rows[0]!.payload as FeedbackNotificationPayload;
      assert.deepEqual([p.feedback.id, p.feedback.source, p.feedback.message], [saved.id, "api", "via the API"]);
    });

    test("hostile feedback (a megabyte, NUL bytes, markup) is stored, fires, and renders within every service's limits", async () => {
      const { t, projectId } = await world();
      await t.store.createAlertRule({ ...rule({}), projectId, createdBy: null });
      const huge = `<!channel> @everyone <b>x</b>\u0000` + "é".repeat(1_000_000);
      const report = feedbackOfUserReport(
        { event_id: newId(), name: "N\u0000ul", email: "a@b.c", comments: huge },
        projectId,
        new Date().toISOString(),
        "user_report",
      );
      const result = await batch(t, { events: [feedbackEvent(projectId, huge, { name: "x".repeat(100_000) })], feedback: [report] });
      assert.equal(result.notifications, 2);
      const rows = await feedbackRows(t);
      assert.equal(rows.length, 2, "both notifications are feedback's");
      for (const row of rows) {
        const p = row.payload as FeedbackNotificationPayload;
        assert.ok(p.feedback.message.length <= 4000 && !p.feedback.message.includes("\u0000"));
        const slack = JSON.parse(renderSlack(p).body) as { text: string; blocks: { type: string; text?: { type: string; text: string } }[] };
        assert.ok(slack.blocks[0]!.text!.text.length <= 150);
        const mrkdwn = [slack.text, ...slack.blocks.flatMap((b) => (b.text?.type === "mrkdwn" ? [b.text.text] : []))];
        assert.ok(mrkdwn.length > 1 && mrkdwn.every((x) => !x.includes("<!channel>")), "no mention from the feedback's text (plain_text never mentions)");
        const discord = JSON.parse(renderDiscord(p).body) as { embeds: { title: string; description: string }[]; allowed_mentions: unknown };
        assert.ok(discord.embeds[0]!.title.length <= 256 && discord.embeds[0]!.description.length <= 4096);
        assert.deepEqual(discord.allowed_mentions, { parse: [] });
        assert.ok(renderTeams(p).body.length < 28_000);
        const mail = renderEmail(p, "issue_rule", "de");
        assert.ok(mail.subject.length <= 200 && mail.subject.startsWith("[Shop] Neues Nutzer-Feedback"));
        assert.ok(!mail.html.includes("<b>x</b>") && mail.html.includes("&lt;b&gt;x&lt;/b&gt;"), "markup is escaped");
        assert.match(mail.text, /Sie erhalten diese E-Mail, weil eine Alarmregel dieses Projekts Sie benachrichtigt\./);
        const hook = JSON.parse(renderWebhook(p, "k", "secret").body) as { message: string; event: { contexts: { feedback: { contact_email: string } } } };
        assert.ok(hook.message.length <= 4000);
        assert.equal(hook.event.contexts.feedback.contact_email, p.feedback.email);
      }
    });
  });
}
