// Quotas, outcomes and backpressure: what the intake refuses or drops is answered as Relay answers it and counted
// by outcome, reason and data category, together with what SDKs report they discarded themselves.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { SELF_MONITORING_LIMITS } from "../../src/config/limits";
import { findInternalProject } from "../../src/core/internal-project";
import { createKey, updateKey } from "../../src/core/keys";
import { updateProject } from "../../src/core/projects";
import { projectStatSeries } from "../../src/core/stats";
import { type TestIntake, startTestIntake } from "../helpers/intake";

const hex = () => crypto.randomUUID().replace(/-/g, "");
const post = (url: string, body: string) => fetch(url, { method: "POST", body });

describe("quotas and outcomes", () => {
  let t: TestIntake;
  before(async () => {
    t = await startTestIntake();
  });
  after(() => t.close());

  test("a key's quota: events past it get 429 with Retry-After and X-Sentry-Rate-Limits; sessions still pass", async () => {
    const p = t.projects[1];
    await t.core.store.updateKey(p.id, p.key.id, { rateLimit: { count: 2, windowSeconds: 3600 } });
    await new Promise((r) => setTimeout(r, 2100)); // the key cache's TTL
    const url = t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`);
    const event = () => `{"event_id":"${hex()}"}\n{"type":"event"}\n{"message":"quota"}\n`;
    assert.equal((await post(url, event())).status, 200);
    assert.equal((await post(url, event())).status, 200);
    const limited = await post(url, event());
    assert.equal(limited.status, 429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    assert.ok(retryAfter > 0 && retryAfter <= 3600);
    assert.match(limited.headers.get("x-sentry-rate-limits") ?? "", /^\d+:error;default;security:key:key_quota$/);
    const session = `{}\n{"type":"session"}\n${JSON.stringify({ sid: hex(), started: new Date().toISOString(), status: "ok", attrs: { release: "r1" } })}\n`;
    assert.equal((await post(url, session)).status, 200);
    // An envelope with both: the session is kept, the event dropped, and the SDK is told about the limit on a 200.
    const both = `{"event_id":"${hex()}"}\n{"type":"event"}\n{"message":"x"}\n{"type":"session"}\n${JSON.stringify({ sid: hex(), started: new Date().toISOString(), status: "ok", attrs: { release: "r1" } })}\n`;
    const mixed = await post(url, both);
    assert.equal(mixed.status, 200);
    assert.match(mixed.headers.get("x-sentry-rate-limits") ?? "", /key_quota/);
    await t.settle();
    const totals = await t.core.store.outcomeTotals(p.id, "2000-01-01T00:00:00Z");
    const count = (outcome: string, category: string, reason = "") =>
      totals.find((o) => o.outcome === outcome && o.category === category && o.reason === reason)?.quantity ?? 0;
    assert.equal(count("accepted", "default"), 2);
    assert.equal(count("rate_limited", "default", "key_quota"), 2);
    assert.equal(count("accepted", "session"), 2);
  });

  test("client reports add the SDK's own discards; invalid and filtered items are counted; the stats API sums them", async () => {
    const p = t.projects[0];
    const url = t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`);
    const report = {
      timestamp: Date.now() / 1000,
      discarded_events: [
        { reason: "sample_rate", category: "transaction", quantity: 7 },
        { reason: "before_send", category: "error", quantity: 2 },
      ],
    };
    assert.equal((await post(url, `{}\n{"type":"client_report"}\n${JSON.stringify(report)}\n{"type":"profile_chunk"}\n{}\n`)).status, 200);
    assert.equal((await post(url, `{}\n{"type":"event"}\n{not json`)).status, 400);
    assert.equal((await post(url, `{"event_id":"${hex()}"}\n{"type":"event"}\n{"exception":{"values":[{"type":"E"}]}}\n`)).status, 200);
    await t.settle();
    const totals = await t.core.store.outcomeTotals(p.id, "2000-01-01T00:00:00Z");
    const find = (outcome: string, category: string, reason: string) =>
      totals.find((o) => o.outcome === outcome && o.category === category && o.reason === reason)?.quantity;
    assert.equal(find("client_discard", "transaction", "sample_rate"), 7);
    assert.equal(find("client_discard", "error", "before_send"), 2);
    assert.equal(find("invalid", "event" === "event" ? "default" : "", "invalid_json"), 1);
    assert.equal(find("filtered", "profile", "unsupported_item_type"), 1);
    assert.equal(find("accepted", "error", ""), 1);
    const owner = (await t.core.store.listMembers((await t.core.store.getOrganizationBySlug(t.org))!.id))[0]!;
    const user = (await t.core.store.getUserById(owner.userId))!;
    const series = await projectStatSeries(t.core.as(user), t.org, p.slug, { stat: "received" });
    assert.equal(series.length, 25);
    assert.ok(series.reduce((n, [, c]) => n + c, 0) >= 1);
    assert.ok(series.every(([ts]) => ts % 3600 === 0));
  });
});

// Before, only error events counted against quotas: transactions, spans, attachments and sessions went through
// unlimited, so anyone with a DSN (the internal project's is in every page of Faultline) could fill the spool.
describe("hostile input #11: every data category has per-key and per-project quotas", () => {
  let t: TestIntake;
  before(async () => {
    t = await startTestIntake();
  });
  after(() => t.close());

  const now = () => new Date().toISOString();
  const items: Record<string, () => string> = {
    transaction: () =>
      `{"event_id":"${hex()}"}\n{"type":"transaction"}\n${JSON.stringify({ type: "transaction", transaction: "/q", start_timestamp: Date.now() / 1000 - 1, timestamp: Date.now() / 1000, contexts: { trace: { trace_id: hex(), span_id: hex().slice(0, 16), op: "http.server" } } })}\n`,
    span: () =>
      `{}\n{"type":"span"}\n${JSON.stringify({ trace_id: hex(), span_id: hex().slice(0, 16), op: "ui", start_timestamp: Date.now() / 1000 - 1, timestamp: Date.now() / 1000 })}\n`,
    attachment: () => `{"event_id":"${hex()}"}\n{"type":"attachment","length":600,"filename":"a.txt"}\n${"a".repeat(600)}\n`,
    session: () => `{}\n{"type":"session"}\n${JSON.stringify({ sid: hex(), started: now(), status: "ok", attrs: { release: "r1" } })}\n`,
    feedback: () => `{"event_id":"${hex()}"}\n{"type":"feedback"}\n${JSON.stringify({ contexts: { feedback: { message: "quota" } } })}\n`,
    monitor: () => `{}\n{"type":"check_in"}\n${JSON.stringify({ check_in_id: hex(), monitor_slug: "nightly", status: "ok" })}\n`,
    internal: () =>
      `{}\n{"type":"client_report"}\n${JSON.stringify({ timestamp: Date.now() / 1000, discarded_events: [{ reason: "sample_rate", category: "transaction", quantity: 1 }] })}\n`,
  };
  const sentryName: Record<string, string> = {
    transaction: "transaction",
    span: "span",
    attachment: "attachment",
    session: "session",
    feedback: "feedback;user_report_v2",
    monitor: "monitor",
    internal: "internal",
  };

  test("a key's quota of each category: past it 429 with that category in X-Sentry-Rate-Limits, other categories unaffected", async () => {
    const p = t.projects[0];
    // One item of each category, and 1,000 bytes of attachments (two of 600 do not fit).
    const quotas = {
      transaction: { count: 1, window: 3600 },
      span: { count: 1, window: 3600 },
      attachment: { count: 1000, window: 3600 },
      session: { count: 1, window: 3600 },
      feedback: { count: 1, window: 3600 },
      monitor: { count: 1, window: 3600 },
      internal: { count: 1, window: 3600 },
    };
    await updateKey(t.core.as(t.owner), t.org, p.slug, p.key.publicKey, { quotas });
    await new Promise((r) => setTimeout(r, 2100)); // the key cache's TTL
    const url = t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`);
    for (const [category, item] of Object.entries(items)) {
      assert.equal((await post(url, item())).status, 200, `${category}: the first fits`);
      const limited = await post(url, item());
      assert.equal(limited.status, 429, `${category}: the second does not`);
      assert.match(limited.headers.get("x-sentry-rate-limits") ?? "", new RegExp(`^\\d+:${sentryName[category]}:key:key_quota$`), category);
      assert.ok(Number(limited.headers.get("retry-after")) > 0, category);
    }
    // Errors have no quota here: still accepted.
    assert.equal((await post(url, `{"event_id":"${hex()}"}\n{"type":"event"}\n{"message":"errors are not limited"}\n`)).status, 200);
    await t.settle();
    const totals = await t.core.store.outcomeTotals(p.id, "2000-01-01T00:00:00Z");
    const limited = (category: string) =>
      totals.find((o) => o.outcome === "rate_limited" && o.category === category && o.reason === "key_quota")?.quantity ?? 0;
    assert.equal(limited("transaction"), 1);
    assert.equal(limited("attachment"), 600, "attachments are counted in bytes");
    assert.equal(limited("session"), 1);
  });

  test("a project's quota of a category holds across its keys", async () => {
    const p = t.projects[1];
    const second = await createKey(t.core.as(t.owner), t.org, p.slug, { name: "Second" });
    await updateProject(t.core.as(t.owner), t.org, p.slug, { quotas: { transaction: { count: 2, window: 3600 } } });
    await new Promise((r) => setTimeout(r, 2100));
    const via = (publicKey: string) => t.url("envelope", p, `?sentry_key=${publicKey}&sentry_version=7`);
    assert.equal((await post(via(p.key.publicKey), items.transaction!())).status, 200);
    assert.equal((await post(via(second.key.publicKey), items.transaction!())).status, 200);
    const limited = await post(via(second.key.publicKey), items.transaction!());
    assert.equal(limited.status, 429);
    assert.match(limited.headers.get("x-sentry-rate-limits") ?? "", /^\d+:transaction:project:project_quota$/);
    // Removing it (null) lifts it.
    await updateProject(t.core.as(t.owner), t.org, p.slug, { quotas: { transaction: null } });
    await new Promise((r) => setTimeout(r, 2100));
    assert.equal((await post(via(p.key.publicKey), items.transaction!())).status, 200);
  });

  test("the internal project's public key has tight quotas of its own (SELF_MONITORING_LIMITS.internalKeyQuotas)", async () => {
    const internal = await findInternalProject(t.core.store);
    assert.ok(internal?.key);
    const url = `${t.origin}/api/${internal.project.id}/envelope/?sentry_key=${internal.key.publicKey}&sentry_version=7`;
    const limit = SELF_MONITORING_LIMITS.internalKeyQuotas.error.count;
    const event = () => `{"event_id":"${hex()}"}\n{"type":"event"}\n{"message":"self"}\n`;
    // The window is aligned to the minute (as Sentry's): start well inside one, so the whole burst falls in it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
    const answers: number[] = [];
    for (let i = 0; i < limit; i++) answers.push((await post(url, event())).status);
    assert.deepEqual(new Set(answers), new Set([200]), `the first ${limit} fit`);
    const refused = await post(url, event());
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get("x-sentry-rate-limits") ?? "", /^\d+:error;default;security:key:key_quota$/);
  });
});

describe("what the intake leaves to the digest", () => {
  let t: TestIntake;
  before(async () => {
    t = await startTestIntake();
  });
  after(() => t.close());

  test("an event whose id the envelope header gives is only outlined: 200, then the digest counts bad JSON as invalid", async () => {
    const p = t.projects[0];
    const url = t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`);
    const broken = hex();
    const answer = await post(url, `{"event_id":"${broken}"}\n{"type":"event"}\n{"message": "cut off", }\n`);
    assert.equal(answer.status, 200, "Relay answers before parsing the payload");
    assert.deepEqual(await answer.json(), { id: broken });
    // Not even the outline of an object: refused at once, as before.
    assert.equal((await post(url, `{"event_id":"${hex()}"}\n{"type":"event"}\nnot json\n`)).status, 400);
    const fine = hex();
    assert.equal((await post(url, `{"event_id":"${fine}"}\n{"type":"event"}\n{"message":"fine"}\n`)).status, 200);
    await t.settle();
    assert.ok(await t.core.store.getEvent(p.id, fine));
    assert.equal(await t.core.store.getEvent(p.id, broken), null, "the unreadable event is not stored");
    const totals = await t.core.store.outcomeTotals(p.id, "2000-01-01T00:00:00Z");
    // One counted by the digest (the broken payload), one by the intake (the refused one).
    assert.equal(totals.find((o) => o.outcome === "invalid" && o.category === "error" && o.reason === "invalid_json")?.quantity, 2);
  });

  test("the digest thread runs at a lower priority than the intake's (Linux nice value)", async () => {
    const { DIGEST_LIMITS } = await import("../../src/config/limits");
    const { readdirSync, readFileSync } = await import("node:fs");
    // Field 19 of /proc/<pid>/task/<tid>/stat, counted after the parenthesised thread name.
    const nice = (tid: string) => Number(readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16]);
    const values = readdirSync("/proc/self/task").map(nice);
    assert.ok(values.includes(0), "the test's own thread runs at normal priority");
    assert.ok(values.includes(DIGEST_LIMITS.threadNiceness), `a thread at nice ${DIGEST_LIMITS.threadNiceness}: ${values.join(", ")}`);
  });
});

describe("backpressure", () => {
  test("when the disk is (nearly) full the intake answers 503 with Retry-After and stores nothing", async () => {
    const t = await startTestIntake({
      pressureLimits: { maxBacklogBytes: Number.MAX_SAFE_INTEGER, maxPendingBytes: Number.MAX_SAFE_INTEGER, minFreeDiskBytes: Number.MAX_SAFE_INTEGER },
    });
    try {
      const p = t.projects[0];
      await new Promise((r) => setTimeout(r, 100)); // the first free-space measurement
      const r = await post(t.url("envelope", p, `?sentry_key=${p.key.publicKey}`), `{"event_id":"${hex()}"}\n{"type":"event"}\n{}\n`);
      assert.equal(r.status, 503);
      assert.ok(Number(r.headers.get("retry-after")) > 0);
      await t.settle();
      assert.equal((await t.core.store.listEvents(p.id, "errors", { limit: 10 })).items.length, 0);
    } finally {
      await t.close();
    }
  });
});
