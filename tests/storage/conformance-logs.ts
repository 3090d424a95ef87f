// Structured logs (issue 19), run by conformance.ts on each dialect: lines written in the digest's batch transaction,
// read newest first by their timestamp with a cursor, narrowed by level, time range, trace, words of the body (as
// prefixes) and attribute `key:value` pairs through each dialect's search index (SQLite FTS5, PostgreSQL tsvector),
// alike on both; both of SQLite's search paths (few matches, many matches); the live tail; a trace's lines across an
// organization; retention and a deleted project taking their lines and search terms with them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { LOG_LIMITS } from "../../src/config/limits";
import { writeBatch } from "../../src/digest/commit";
import type { LogAttribute, LogFilter, NewLog } from "../../src/storage/log-ports";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

const TRACE = "5b8efff798038103d269b633813fc60c";
const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
const str = (value: string): LogAttribute => ({ type: "string", value });

function line(projectId: number, body: string, minutesAgo: number, extra: Partial<NewLog> = {}): NewLog {
  return {
    projectId,
    timestamp: at(minutesAgo),
    receivedAt: new Date().toISOString(),
    level: "info",
    severityNumber: 9,
    body,
    attributes: { "sentry.environment": str("production") },
    traceId: null,
    spanId: null,
    release: null,
    environment: "production",
    meta: null,
    ...extra,
  };
}

export function logConformance(get: () => Fixture) {
  async function setup() {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("logs"), name: "Logs", ownerUserId: alice.id });
    const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("api"), name: "API", platform: null });
    const q = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("web"), name: "Web", platform: null });
    const other = await t.store.createOrganization({ slug: uniq("logs-other"), name: "Other", ownerUserId: alice.id });
    const r = await t.store.createProject({ organizationId: other.id, teamId: null, slug: uniq("r"), name: "R", platform: null });
    return { t, org, p, q, other, r };
  }
  const write = (t: TestCore, logs: NewLog[]) => writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events: [], logs });
  const bodies = async (t: TestCore, f: LogFilter) => (await t.store.listLogs(f, 100)).map((l) => l.body);

  test("issue 19 logs: newest first by timestamp (not arrival), paged by a cursor without gaps or repeats", async () => {
    const { t, p } = await setup();
    // Written out of order: the oldest line arrives last.
    await write(t, [line(p.id, "second", 20), line(p.id, "third", 10)]);
    await write(t, [
      line(p.id, "first", 30),
      line(p.id, "fourth", 5, { attributes: { n: { type: "integer", value: 7 }, ok: { type: "boolean", value: true } } }),
    ]);
    assert.deepEqual(await bodies(t, { projectId: p.id }), ["fourth", "third", "second", "first"]);
    const page1 = await t.store.listLogs({ projectId: p.id }, 2);
    const page2 = await t.store.listLogs({ projectId: p.id }, 2, { timestamp: page1[1]!.timestamp, id: page1[1]!.id });
    assert.deepEqual(
      [...page1, ...page2].map((l) => l.body),
      ["fourth", "third", "second", "first"],
    );
    assert.deepEqual(page1[0]!.attributes.n, { type: "integer", value: 7 }, "attributes keep their types");
    assert.deepEqual(page1[0]!.attributes.ok, { type: "boolean", value: true });
    // Two lines of the same millisecond are both paged through (the id breaks the tie).
    const same = at(1);
    await write(t, [line(p.id, "tie a", 0, { timestamp: same }), line(p.id, "tie b", 0, { timestamp: same })]);
    const top = await t.store.listLogs({ projectId: p.id }, 1);
    const next = await t.store.listLogs({ projectId: p.id }, 1, { timestamp: top[0]!.timestamp, id: top[0]!.id });
    assert.deepEqual([top[0]!.body, next[0]!.body].sort(), ["tie a", "tie b"]);
  });

  test("issue 19 logs: level, time range and trace narrow the list", async () => {
    const { t, p } = await setup();
    await write(t, [
      line(p.id, "debugging", 50, { level: "debug", severityNumber: 5 }),
      line(p.id, "careful", 40, { level: "warn", severityNumber: 13, traceId: TRACE }),
      line(p.id, "broken", 30, { level: "error", severityNumber: 17, traceId: TRACE }),
      line(p.id, "fine", 5),
    ]);
    assert.deepEqual(await bodies(t, { projectId: p.id, levels: ["error"] }), ["broken"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, levels: ["warn", "error"] }), ["broken", "careful"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, from: at(45), to: at(20) }), ["broken", "careful"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, traceId: TRACE }), ["broken", "careful"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, traceId: TRACE, levels: ["warn"] }), ["careful"]);
  });

  test("issue 19 logs: words of the body match as prefixes, all of them, within the project only, alike on both databases", async () => {
    const { t, p, q } = await setup();
    await write(t, [
      line(p.id, "Payment failed for order 1234", 30),
      line(p.id, "payment succeeded", 20),
      line(p.id, "Größe überschritten: user@example.com", 10),
      line(q.id, "Payment failed elsewhere", 5),
    ]);
    assert.deepEqual(await bodies(t, { projectId: p.id, words: ["pay"] }), ["payment succeeded", "Payment failed for order 1234"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, words: ["payment", "fail"] }), ["Payment failed for order 1234"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, words: ["1234"] }), ["Payment failed for order 1234"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, words: ["größe"] }), ["Größe überschritten: user@example.com"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, words: ["example"] }), ["Größe überschritten: user@example.com"], "an address's parts are words");
    assert.deepEqual(await bodies(t, { projectId: p.id, words: ["ailed"] }), [], "words match from their start");
    assert.deepEqual(await bodies(t, { projectId: p.id, words: ["payment", "nothing"] }), []);
    assert.deepEqual(await bodies(t, { projectId: q.id, words: ["payment"] }), ["Payment failed elsewhere"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, words: ["pay"], levels: ["error"] }), []);
  });

  test("issue 19 logs: key:value terms name an attribute exactly, numbers and booleans by their JSON text", async () => {
    const { t, p } = await setup();
    const attrs = (user: string, n: number) => ({
      "user.id": str(user),
      count: { type: "integer" as const, value: n },
      cached: { type: "boolean" as const, value: n > 1 },
      long: str("x".repeat(LOG_LIMITS.maxIndexedValueLength + 1)),
    });
    await write(t, [
      line(p.id, "a", 30, { attributes: attrs("42", 1) }),
      line(p.id, "b", 20, { attributes: attrs("420", 2) }),
      line(p.id, "c", 10, { attributes: attrs("42", 3) }),
    ]);
    assert.deepEqual(await bodies(t, { projectId: p.id, pairs: [{ key: "user.id", value: "42" }] }), ["c", "a"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, pairs: [{ key: "count", value: "2" }] }), ["b"]);
    assert.deepEqual(await bodies(t, { projectId: p.id, pairs: [{ key: "cached", value: "true" }] }), ["c", "b"]);
    assert.deepEqual(
      await bodies(t, {
        projectId: p.id,
        pairs: [
          { key: "user.id", value: "42" },
          { key: "cached", value: "false" },
        ],
      }),
      ["a"],
    );
    assert.deepEqual(await bodies(t, { projectId: p.id, pairs: [{ key: "user", value: "42" }] }), [], "the whole key");
    assert.deepEqual(
      await bodies(t, { projectId: p.id, pairs: [{ key: "long", value: "x".repeat(LOG_LIMITS.maxIndexedValueLength + 1) }] }),
      [],
      "long values are not indexed",
    );
  });

  test("issue 19 logs: a search matching more lines than SQLite's candidate rows still reads newest first by timestamp", async () => {
    const { t, p } = await setup();
    const many = LOG_LIMITS.searchCandidateRows + 30;
    // Arrival order is the reverse of time order: a search ordered by arrival would get the page wrong.
    const rows = Array.from({ length: many }, (_, i) => line(p.id, `common word ${i}`, 1 + i * 0.01, { attributes: { shard: str(String(i % 2)) } }));
    await write(t, rows.reverse());
    const page = await t.store.listLogs({ projectId: p.id, words: ["common"] }, 3);
    assert.deepEqual(
      page.map((l) => l.body),
      ["common word 0", "common word 1", "common word 2"],
    );
    const odd = await t.store.listLogs({ projectId: p.id, words: ["word"], pairs: [{ key: "shard", value: "1" }] }, 2);
    assert.deepEqual(
      odd.map((l) => l.body),
      ["common word 1", "common word 3"],
    );
    const next = await t.store.listLogs({ projectId: p.id, words: ["common"] }, 2, { timestamp: page[2]!.timestamp, id: page[2]!.id });
    assert.deepEqual(
      next.map((l) => l.body),
      ["common word 3", "common word 4"],
    );
  });

  test("issue 19 logs: a search whose level keeps few of SQLite's candidates reads further until its page is whole", async () => {
    const { t, p } = await setup();
    // Every 700th line is an error: the first, level-widened step of candidates holds two or three of them.
    const many = LOG_LIMITS.searchCandidateRows * 10 + 900;
    const rows = Array.from({ length: many }, (_, i) => line(p.id, `common word ${i}`, 1 + i * 0.01, i % 700 === 0 ? { level: "error" } : {}));
    await write(t, rows.reverse());
    const page = await t.store.listLogs({ projectId: p.id, words: ["common"], levels: ["error"] }, 4);
    assert.deepEqual(
      page.map((l) => l.body),
      ["common word 0", "common word 700", "common word 1400", "common word 2100"],
    );
  });

  test("issue 19 logs: the live tail reads lines stored after a given one, with the page's filters", async () => {
    const { t, p, q } = await setup();
    await write(t, [line(p.id, "before", 10)]);
    const from = await t.store.lastLogId();
    assert.ok(from > 0);
    await write(t, [line(p.id, "new info", 1), line(p.id, "new error", 1, { level: "error" }), line(q.id, "other project", 1)]);
    assert.deepEqual(
      (await t.store.tailLogs({ projectId: p.id }, from, 10)).map((l) => l.body),
      ["new info", "new error"],
    );
    assert.deepEqual(
      (await t.store.tailLogs({ projectId: p.id, levels: ["error"] }, from, 10)).map((l) => l.body),
      ["new error"],
    );
    assert.deepEqual(
      (await t.store.tailLogs({ projectId: p.id, words: ["info"] }, from, 10)).map((l) => l.body),
      ["new info"],
    );
    assert.equal((await t.store.lastLogId()) > from, true);
  });

  test("issue 19 logs: a trace's lines across the organization's projects, not another organization's", async () => {
    const { t, org, p, q, r } = await setup();
    await write(t, [
      line(p.id, "api side", 3, { traceId: TRACE }),
      line(q.id, "web side", 2, { traceId: TRACE }),
      line(r.id, "elsewhere", 1, { traceId: TRACE }),
    ]);
    const lines = await t.store.traceLogs(org.id, TRACE, 10);
    assert.deepEqual(
      lines.map((l) => [l.body, l.projectSlug]),
      [
        ["api side", p.slug],
        ["web side", q.slug],
      ],
    );
  });

  test("issue 19 logs: retention deletes old lines with their search terms; a deleted project takes its lines", async () => {
    const { t, p, q } = await setup();
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await write(t, [line(p.id, "ancient searchable", 60 * 24 * 40, { receivedAt: old }), line(p.id, "recent searchable", 1)]);
    const cutoff = new Date(Date.now() - 30 * 86_400_000).toISOString();
    let deleted = 0;
    for (let n = 1; n > 0; ) deleted += n = await t.store.pruneLogsBefore(cutoff, new Date().toISOString(), 90, 1_000_000);
    assert.ok(deleted >= 1);
    assert.deepEqual(await bodies(t, { projectId: p.id, words: ["searchable"] }), ["recent searchable"]);
    // A project with a shorter retention of its own loses lines older than it.
    await t.store.updateProject(q.id, { retentionDays: 1 });
    await write(t, [line(q.id, "two days old", 60 * 48), line(q.id, "today", 1)]);
    while ((await t.store.pruneLogsBefore(cutoff, new Date().toISOString(), 90, 1000)) > 0);
    assert.deepEqual(await bodies(t, { projectId: q.id }), ["today"]);
    await t.store.deleteProject(q.id);
    assert.deepEqual(await bodies(t, { projectId: q.id, words: ["today"] }), []);
    assert.deepEqual(await bodies(t, { projectId: q.id }), []);
  });
}
