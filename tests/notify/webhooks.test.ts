// Webhook-like deliveries to real HTTP receivers on loopback (the host allowed in the instance settings), each body
// checked against the shape its service documents, the generic webhook's signature verified as a Sentry receiver
// verifies it. Ports 9740-9743.
import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import { after, before, test } from "node:test";
import { UNAVAILABLE_MAILER } from "../../src/notify/mailer";
import { createSender, startNotificationSender } from "../../src/notify/sender";
import { DISCORD_ACTION, SLACK_ACTION, TEAMS_ACTION, WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import { type Receiver, type Seeded, type TestDb, enqueue, notification, receiver, seed, settle, testDb } from "./fixtures";
import type { TestJson } from "../helpers/json";

let t: TestDb;
let s: Seeded;
let hook: Receiver;
const SECRET = "s3cret-webhook-key";

before(async () => {
  t = await testDb("sqlite");
  s = await seed(t.db, SECRET);
  await t.store.setAllowedHostsSetting("127.0.0.1");
  hook = await receiver(9740);
});
after(async () => {
  await hook.close();
  await t.close();
});

const sender = () => createSender({ store: t.store, mailer: UNAVAILABLE_MAILER, log: () => undefined });

/** As a Sentry receiver checks it: HMAC-SHA256 of the raw body with the shared secret, hex, compared in constant time. */
function verifySentrySignature(body: Buffer, header: string | string[] | undefined, secret: string): boolean {
  const expected = Buffer.from(createHmac("sha256", secret).update(body).digest("hex"), "utf8");
  const given = Buffer.from(String(header ?? ""), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

test("issue 17 delivery: the generic webhook gets Sentry's legacy plugin body, signed with the project's secret, with the idempotency key", async () => {
  const n = notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url("/sentry?token=abc") });
  const [id] = await enqueue(t.db, [n]);
  const runner = sender();
  assert.equal(await settle(t.store, id!, () => runner.runOnce()), "sent");
  const r = hook.receipts.find((x) => x.key === n.idempotencyKey)!;
  assert.ok(r, "the receiver got it");
  assert.equal(r.path, "/sentry?token=abc");
  assert.equal(r.headers["content-type"], "application/json");
  assert.equal(r.headers["request-id"], n.idempotencyKey, "Sentry's Request-ID carries the key too");
  assert.equal(r.headers["sentry-hook-resource"], "event_alert");
  assert.ok(verifySentrySignature(r.body, r.headers["sentry-hook-signature"], SECRET), "the signature verifies over the exact body bytes");
  assert.ok(!verifySentrySignature(r.body, r.headers["sentry-hook-signature"], "another-secret"));
  const body = JSON.parse(r.body.toString("utf8")) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), [
    "culprit",
    "event",
    "id",
    "level",
    "logger",
    "message",
    "project",
    "project_name",
    "project_slug",
    "triggering_rules",
    "url",
  ]);
  assert.equal(body.id, String(s.issueId));
  assert.equal(body.project, "api");
  assert.equal(body.project_slug, "api");
  assert.equal(body.project_name, "API");
  assert.equal(body.level, "error");
  assert.equal(body.logger, "node");
  assert.equal(body.culprit, "app/handlers.js in handle");
  assert.equal(body.message, "x is undefined");
  assert.equal(body.url, "https://faultline.example.com/en/organizations/acme/issues/1/");
  assert.deepEqual(body.triggering_rules, ["Send a notification for new issues"]);
  const event = body.event as Record<string, unknown>;
  assert.equal(event.event_id, "0123456789abcdef0123456789abcdef");
  assert.equal(event.id, event.event_id);
  assert.deepEqual(event.tags, [
    ["level", "error"],
    ["logger", "node"],
    ["environment", "production"],
  ]);
  assert.deepEqual(event.request, { url: "https://shop.example.com/cart" });

  const [attempt] = await t.store.listNotificationAttempts(id!);
  assert.equal(attempt!.ok, true);
  assert.equal(attempt!.statusCode, 200);
  assert.equal(attempt!.responseExcerpt, "ok");
  assert.equal(attempt!.target, "http://127.0.0.1:9740/sentry", "the history names origin and path, never the query (it may hold a token)");
});

test("issue 17 delivery: Slack gets a Block Kit message, Discord an embed, Teams an Adaptive Card attachment, each within the service's limits", async () => {
  const long = "y".repeat(9000);
  const payload = { ...notification(s, { id: SLACK_ACTION, webhookUrl: "" }).payload };
  if (payload.kind !== "issue") throw new Error("issue payload expected");
  const big = { ...payload, issue: { ...payload.issue, title: `<!channel> ${long}` }, event: { ...payload.event!, message: `@everyone ${long}` } };
  const rows = [
    notification(s, { id: SLACK_ACTION, webhookUrl: hook.url("/slack") }, { payload: big }),
    notification(s, { id: DISCORD_ACTION, webhookUrl: hook.url("/discord") }, { payload: big }),
    notification(s, { id: TEAMS_ACTION, webhookUrl: hook.url("/teams") }, { payload: big }),
  ];
  const ids = await enqueue(t.db, rows);
  const runner = sender();
  for (const id of ids) assert.equal(await settle(t.store, id, () => runner.runOnce()), "sent");
  const bodyOf = (p: string) => JSON.parse(hook.receipts.find((r) => r.path === p)!.body.toString("utf8")) as Record<string, TestJson>;

  const slack = bodyOf("/slack");
  assert.equal(typeof slack.text, "string", "the fallback text of notifications");
  assert.ok(Array.isArray(slack.blocks) && slack.blocks.length <= 50);
  assert.equal(slack.blocks[0].type, "header");
  assert.equal(slack.blocks[0].text.type, "plain_text");
  assert.ok(slack.blocks[0].text.text.length <= 150);
  for (const b of slack.blocks) {
    assert.ok(["header", "section", "actions", "context", "divider"].includes(b.type));
    if (b.type === "section" && b.text) {
      assert.ok(b.text.text.length <= 3000);
      assert.ok(!b.text.text.includes("<!channel>"), "angle brackets are escaped: no mention from an event's text");
    }
    if (b.type === "section" && b.fields) assert.ok(b.fields.length <= 10 && b.fields.every((f: TestJson) => f.type === "mrkdwn" && f.text.length <= 2000));
  }
  const button = slack.blocks.find((b: TestJson) => b.type === "actions").elements[0];
  assert.equal(button.type, "button");
  assert.equal(button.url, "https://faultline.example.com/en/organizations/acme/issues/1/");

  const discord = bodyOf("/discord");
  assert.deepEqual(discord.allowed_mentions, { parse: [] }, "no @everyone from an event's text");
  assert.equal(discord.embeds.length, 1);
  const embed = discord.embeds[0];
  assert.ok(embed.title.length <= 256 && embed.description.length <= 4096);
  assert.ok(embed.fields.length <= 25 && embed.fields.every((f: TestJson) => f.name.length <= 256 && f.value.length <= 1024));
  const total =
    embed.title.length +
    embed.description.length +
    embed.footer.text.length +
    embed.fields.reduce((n: number, f: TestJson) => n + f.name.length + f.value.length, 0);
  assert.ok(total <= 6000, `all embed text within 6000 characters (${total})`);
  assert.equal(typeof embed.color, "number");
  assert.equal(embed.url, "https://faultline.example.com/en/organizations/acme/issues/1/");
  assert.ok(!Number.isNaN(Date.parse(embed.timestamp)));

  const teams = bodyOf("/teams");
  assert.equal(teams.type, "message");
  assert.equal(teams.attachments.length, 1);
  assert.equal(teams.attachments[0].contentType, "application/vnd.microsoft.card.adaptive");
  const card = teams.attachments[0].content;
  assert.equal(card.type, "AdaptiveCard");
  assert.equal(card.version, "1.4");
  assert.ok(card.body.every((b: TestJson) => ["TextBlock", "FactSet"].includes(b.type)));
  assert.deepEqual(
    card.actions.map((a: TestJson) => [a.type, a.url]),
    [["Action.OpenUrl", "https://faultline.example.com/en/organizations/acme/issues/1/"]],
  );
  assert.ok(Buffer.byteLength(JSON.stringify(teams)) < 28 * 1024, "under the 28 KB of a Teams message");
  for (const r of hook.receipts.filter((x) => ["/slack", "/discord", "/teams"].includes(x.path)))
    assert.ok(r.key.startsWith("rule:7:"), "each request carries its idempotency key");
});

test("issue 17 delivery: metric alerts and weekly summaries render for every service", async () => {
  const metric = {
    kind: "metric" as const,
    ruleName: "Error spike",
    status: "critical" as const,
    value: 120,
    threshold: 100,
    aggregate: "count()",
    timeWindow: 5,
    organization: { id: s.orgId, slug: "acme", name: "Acme" },
    project: null,
    url: "https://faultline.example.com/en/organizations/acme/alerts/1/",
  };
  const summary = {
    kind: "summary" as const,
    organization: { id: s.orgId, slug: "acme", name: "Acme" },
    from: "2026-03-02",
    to: "2026-03-08",
    newIssues: 4,
    events: 1200,
    topIssues: [{ shortId: "API-1", title: "TypeError", count: 900, url: "https://faultline.example.com/x" }],
    crashFreeSessions: 99.5,
    url: "https://faultline.example.com/",
  };
  const rows = [metric, summary].flatMap((payload) =>
    [
      { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url(`/m-${payload.kind}-webhook`) } as const,
      { id: SLACK_ACTION, webhookUrl: hook.url(`/m-${payload.kind}-slack`) } as const,
      { id: DISCORD_ACTION, webhookUrl: hook.url(`/m-${payload.kind}-discord`) } as const,
      { id: TEAMS_ACTION, webhookUrl: hook.url(`/m-${payload.kind}-teams`) } as const,
    ].map((action) => notification(s, action, { payload, source: payload.kind === "metric" ? "metric_alert" : "weekly_summary", issueId: null })),
  );
  const ids = await enqueue(t.db, rows);
  const runner = sender();
  for (const id of ids) assert.equal(await settle(t.store, id, () => runner.runOnce()), "sent");
  const body = (p: string) => JSON.parse(hook.receipts.find((r) => r.path === p)!.body.toString("utf8")) as Record<string, TestJson>;
  assert.equal(body("/m-metric-webhook").action, "critical");
  assert.equal(body("/m-metric-webhook").data.metric_alert.title, "Error spike");
  assert.equal(body("/m-summary-webhook").action, "weekly_summary");
  assert.match(body("/m-metric-slack").blocks[0].text.text, /Critical: Error spike/);
  assert.match(body("/m-summary-discord").embeds[0].title, /Weekly summary of Acme/);
  assert.equal(body("/m-metric-teams").attachments[0].content.type, "AdaptiveCard");
});

test("issue 17 delivery: a woken sender delivers at once, without waiting for its next poll", async () => {
  // Its first pass's claim is awaited before the notification exists, so that pass cannot be what delivers it.
  let firstClaimDone!: () => void;
  const firstClaim = new Promise<void>((resolve) => (firstClaimDone = resolve));
  const store = new Proxy(t.store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== "function") return value;
      if (key !== "claimDueNotifications") return value.bind(target);
      return async (...args: Parameters<typeof target.claimDueNotifications>) => {
        try {
          return await target.claimDueNotifications(...args);
        } finally {
          firstClaimDone();
        }
      };
    },
  });
  // An hour between polls: only the wake-up can make it look again.
  const running = startNotificationSender({ store, mailer: UNAVAILABLE_MAILER, log: () => undefined, pollMs: 3_600_000 });
  try {
    await firstClaim;
    const n = notification(s, { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url("/woken") });
    await enqueue(t.db, [n]);
    running.wake();
    await hook.until((rs) => rs.some((r) => r.key === n.idempotencyKey), "the woken delivery");
  } finally {
    await running.stop();
  }
});
