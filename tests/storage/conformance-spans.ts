// Spans and their rollups, run by conformance.ts on each dialect: spool rows of a transaction event, a span v2 item
// and an error event in one trace go through the digest's own digestRows and writeBatch, then read back by trace,
// as hourly totals and histograms, newest segments, and pruned by retention.
import assert from "node:assert/strict";
import { test } from "node:test";
import { writeBatch } from "../../src/digest/commit";
import { digestRows } from "../../src/digest/items";
import type { SpoolRow } from "../../src/ingest/spool";
import { hourOf } from "../../src/core/hours";
import { quantile } from "../../src/core/performance-metrics";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

let rowId = 0;
const hex = (n: number, len: number) => n.toString(16).padStart(len, "0");

export function spoolRow(projectId: number, itemType: string, payload: unknown, over: Partial<SpoolRow> = {}): SpoolRow {
  return {
    kind: "item",
    id: ++rowId,
    projectId,
    keyId: 1,
    receivedAt: Date.now(),
    itemType,
    eventId: null,
    headers: "{}",
    meta: "{}",
    payload: Buffer.from(JSON.stringify(payload)),
    ...over,
  } as SpoolRow;
}

export function spanConformance(get: () => Fixture) {
  test("spans: a transaction, a span v2 item and an error of one trace become span rows, rollups and a trace link", async () => {
    const { t, alice } = get();
    const o = await t.store.createOrganization({ slug: uniq("perf"), name: "Perf", ownerUserId: alice.id });
    const other = await t.store.createOrganization({ slug: uniq("perf"), name: "Other", ownerUserId: alice.id });
    const api = await t.store.createProject({ organizationId: o.id, teamId: null, slug: uniq("api"), name: "API", platform: null });
    const web = await t.store.createProject({ organizationId: o.id, teamId: null, slug: uniq("web"), name: "Web", platform: null });
    const stranger = await t.store.createProject({ organizationId: other.id, teamId: null, slug: uniq("x"), name: "X", platform: null });
    const traceId = hex(Date.now(), 32);
    const now = Date.now() / 1000 - 60;
    const transaction = {
      type: "transaction",
      transaction: "GET /api/items",
      start_timestamp: now,
      timestamp: now + 0.25,
      contexts: { trace: { trace_id: traceId, span_id: "a".repeat(16), parent_span_id: "b".repeat(16), op: "http.server", status: "internal_error" } },
      spans: [
        {
          span_id: "c".repeat(16),
          parent_span_id: "a".repeat(16),
          trace_id: traceId,
          op: "db",
          description: "select 1",
          start_timestamp: now + 0.01,
          timestamp: now + 0.11,
        },
      ],
      measurements: {},
    };
    const spanItem = {
      version: 2,
      items: [
        // As @sentry/browser 11.5.0 streams a page load: named "Pageload", its path in url.path.
        {
          trace_id: traceId,
          span_id: "b".repeat(16),
          name: "Pageload",
          start_timestamp: now - 0.1,
          end_timestamp: now + 0.9,
          status: "ok",
          is_segment: true,
          attributes: {
            "sentry.op": { type: "string", value: "pageload" },
            "sentry.segment.name.source": { type: "string", value: "url" },
            "url.path": { type: "string", value: "/items" },
            "browser.web_vital.fcp.value": { type: "double", value: 900 },
            "sentry.environment": { type: "string", value: "production" },
          },
        },
        {
          trace_id: traceId,
          span_id: "d".repeat(16),
          parent_span_id: "b".repeat(16),
          name: "largest contentful paint",
          start_timestamp: now + 0.05,
          end_timestamp: now + 0.05,
          status: "ok",
          is_segment: false,
          attributes: {
            "sentry.segment.name": { type: "string", value: "Pageload" },
            "sentry.segment.id": { type: "string", value: "b".repeat(16) },
            "browser.web_vital.lcp.value": { type: "double", value: 3000 },
          },
        },
      ],
    };
    const error = { message: "boom", contexts: { trace: { trace_id: traceId, span_id: "a".repeat(16) } } };
    const txId = hex(rowId + 1000, 32);
    const errId = hex(rowId + 2000, 32);
    const rows = [
      spoolRow(api.id, "transaction", transaction, { eventId: txId }),
      spoolRow(web.id, "span", spanItem),
      spoolRow(api.id, "event", error, { eventId: errId }),
      // The same trace id in another organization is never part of this organization's trace.
      spoolRow(stranger.id, "transaction", { ...transaction, transaction: "elsewhere" }, { eventId: hex(rowId + 3000, 32) }),
    ];
    const d = await digestRows(rows);
    assert.equal(d.rawItems.length, 0, "span items are no longer kept raw");
    const spoolId = uniq("spans");
    await writeBatch(t.store, { spoolId, position: 1, ...d });
    // The same transaction again (a retry) adds nothing: it is a stored event.
    const again = await digestRows([spoolRow(api.id, "transaction", transaction, { eventId: txId })]);
    await writeBatch(t.store, { spoolId, position: 2, ...again });

    // The page's CLS, sent after its segment: named after the stored segment.
    const cls = {
      version: 2,
      items: [
        {
          trace_id: traceId,
          span_id: "e".repeat(16),
          parent_span_id: "b".repeat(16),
          name: "layout shift",
          start_timestamp: now + 0.8,
          end_timestamp: now + 0.8,
          status: "ok",
          attributes: {
            "sentry.segment.name": { type: "string", value: "Pageload" },
            "sentry.segment.id": { type: "string", value: "b".repeat(16) },
            "browser.web_vital.cls.value": { type: "double", value: 0.3 },
          },
        },
      ],
    };
    await writeBatch(t.store, { spoolId, position: 3, ...(await digestRows([spoolRow(web.id, "span", cls)])) });

    const spans = (await t.store.traceSpans(o.id, traceId, 100)).filter((s) => s.spanId !== "e".repeat(16));
    assert.deepEqual(
      spans.map((s) => [s.projectSlug, s.spanId[0], s.parentSpanId?.[0] ?? null, s.isSegment, s.transaction, s.op, s.status]),
      [
        [web.slug, "b", null, true, "/items", "pageload", "ok"],
        [api.slug, "a", "b", true, "GET /api/items", "http.server", "internal_error"],
        [api.slug, "c", "a", false, "GET /api/items", "db", "ok"],
        [web.slug, "d", "b", false, "/items", "default", "ok"],
      ],
    );
    assert.ok(spans[2]!.id < 0, "a transaction's child span is read from its stored event, not from a row of its own");
    assert.equal(Math.round(spans[2]!.durationMs), 100);
    assert.equal(Math.round(spans[1]!.durationMs), 250);
    assert.equal(spans[0]!.environment, "production");
    assert.equal(spans[1]!.eventId, txId);

    const errors = await t.store.traceErrors(o.id, traceId, 10);
    assert.deepEqual(
      errors.map((e) => [e.projectSlug, e.eventId, e.title, e.issueId !== null]),
      [[api.slug, errId, "boom", true]],
    );
    assert.deepEqual(await t.store.traceErrors(other.id, traceId, 10), []);

    const hour = hourOf(now * 1000);
    const range = { sinceHour: hour, untilHour: hour };
    const totals = await t.store.spanTotals(api.id, "duration", range);
    assert.deepEqual(
      totals.sort((a, b) => a.transaction.localeCompare(b.transaction)).map((r) => [r.transaction, r.count, r.failures, r.good, r.poor]),
      [
        ["", 1, 1, 1, 0],
        ["GET /api/items", 1, 1, 1, 0],
      ],
      "one transaction counted once, failed (internal_error), satisfied (250 ms ≤ 300 ms); the project row too",
    );
    const buckets = await t.store.spanBucketTotals(api.id, "duration", range, ["GET /api/items"]);
    const p50 = quantile(buckets, 0.5)!;
    assert.ok(Math.abs(p50 - 250) / 250 <= 0.05, `p50 ${p50} within 5% of 250`);
    const lcp = await t.store.spanTotals(web.id, "lcp", range);
    assert.deepEqual(
      lcp.map((r) => [r.transaction, r.count, r.good, r.poor]).sort(),
      [
        ["", 1, 0, 0],
        ["/items", 1, 0, 0],
      ],
      "3000 ms LCP needs improvement",
    );
    assert.deepEqual(
      (await t.store.spanTotals(web.id, "cls", range)).map((r) => [r.transaction, r.poor]).sort(),
      [
        ["", 1],
        ["/items", 1],
      ],
      "a vital sent after its segment joins the segment's page",
    );
    const fcp = await t.store.spanTotals(web.id, "fcp", range);
    assert.deepEqual(fcp.map((r) => [r.transaction, r.good]).sort(), [
      ["", 1],
      ["/items", 1],
    ]);
    const series = await t.store.spanHourSeries(web.id, "duration", "/items", range);
    assert.deepEqual(
      series.map((s) => [s.hour, s.count]),
      [[hour, 1]],
    );
    assert.equal((await t.store.spanHourBuckets(web.id, "duration", "", range)).length, 1);
    assert.deepEqual(
      (await t.store.recentSegments(api.id, "GET /api/items", 5)).map((s) => s.spanId[0]),
      ["a"],
    );
    assert.deepEqual(await t.store.recentSegments(api.id, "/items", 5), []);

    // Retention: everything received before a cutoff in the future goes; rollups of hours before the next hour too.
    // On PostgreSQL spans are partitioned by day (migration 0029): whole days go by dropping their partition, so the
    // cutoff lies past the end of today; what lies outside every day partition goes row by row. SQLite: rows only.
    const future = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const traced = (await t.store.traceSpans(o.id, traceId, 100)).length;
    const dropped = await t.store.dropDayPartitionsBefore(future, ["spans"]);
    assert.ok(
      dropped.partitions.every((name) => name.startsWith("spans_")),
      dropped.partitions.join(),
    );
    let pruned = 0;
    for (let n = await t.store.pruneSpansBefore(future, 2); n > 0; n = await t.store.pruneSpansBefore(future, 2)) pruned += n;
    // SQLite deletes every span of the suite's database row by row (of this test: the three segments and the two
    // streamed children; the transactions' children are in their events); PostgreSQL drops the day with this trace's.
    assert.ok(
      dropped.partitions.length > 0 ? traced >= 5 : pruned >= 5,
      `pruned ${pruned}, dropped ${dropped.partitions.join()} with ${traced} spans of the trace`,
    );
    assert.deepEqual(await t.store.traceSpans(o.id, traceId, 100), []);
    while ((await t.store.pruneSpanHoursBefore(hourOf(future), 50)) > 0);
    assert.deepEqual(await t.store.spanTotals(api.id, "duration", range), []);
    // A trace link goes with its event when its issue is deleted (SQLite: foreign key, migration 0040; PostgreSQL: by
    // the deletion itself, whose partitioned events no key can reference).
    await t.store.deleteIssue(errors[0]!.issueId!);
    assert.deepEqual(await t.store.traceErrors(o.id, traceId, 10), []);
    assert.deepEqual(await t.db.kysely.selectFrom("trace_events").select("event_row_id").where("trace_id", "=", traceId).execute(), []);
  });

  test("spans: a transaction's child spans stay in its event and read back by trace, once, by start, within the limit", async () => {
    const { t, alice } = get();
    const o = await t.store.createOrganization({ slug: uniq("perf"), name: "Perf", ownerUserId: alice.id });
    const api = await t.store.createProject({ organizationId: o.id, teamId: null, slug: uniq("api"), name: "API", platform: null });
    const traceId = hex(Date.now() + 7, 32);
    const otherTrace = hex(Date.now() + 8, 32);
    const now = Date.now() / 1000 - 60;
    const child = (n: number, over: Record<string, unknown> = {}) => ({
      span_id: hex(0xc0 + n, 16),
      parent_span_id: "a".repeat(16),
      trace_id: traceId,
      op: "db",
      description: `select ${n}`,
      // Out of order in the event: read back by start.
      start_timestamp: now + 0.1 - n * 0.01,
      timestamp: now + 0.2,
      ...over,
    });
    const transaction = {
      type: "transaction",
      transaction: "GET /api/orders",
      start_timestamp: now,
      timestamp: now + 0.3,
      contexts: { trace: { trace_id: traceId, span_id: "a".repeat(16), op: "http.server", status: "ok" } },
      spans: [
        child(1),
        child(2, { trace_id: undefined }),
        child(3),
        child(4),
        // A child that names another trace is found by that trace: a row of its own.
        child(5, { trace_id: otherTrace }),
      ],
    };
    const eventId = hex(rowId + 5000, 32);
    await writeBatch(t.store, { spoolId: uniq("children"), position: 1, ...(await digestRows([spoolRow(api.id, "transaction", transaction, { eventId })])) });

    const rowsOf = async (trace: string) =>
      (await t.db.kysely.selectFrom("spans").select(["span_id", "is_segment"]).where("trace_id", "=", trace).execute()).map((r) => r.span_id);
    assert.deepEqual(await rowsOf(traceId), ["a".repeat(16)], "the segment alone is a row");
    assert.deepEqual(await rowsOf(otherTrace), [hex(0xc5, 16)]);

    const read = await t.store.traceSpans(o.id, traceId, 100);
    assert.deepEqual(
      read.map((s) => [s.spanId, s.parentSpanId, s.isSegment, s.transaction, s.projectSlug, s.eventId]),
      [
        ["a".repeat(16), null, true, "GET /api/orders", api.slug, eventId],
        [hex(0xc4, 16), "a".repeat(16), false, "GET /api/orders", api.slug, null],
        [hex(0xc3, 16), "a".repeat(16), false, "GET /api/orders", api.slug, null],
        [hex(0xc2, 16), "a".repeat(16), false, "GET /api/orders", api.slug, null],
        [hex(0xc1, 16), "a".repeat(16), false, "GET /api/orders", api.slug, null],
      ],
    );
    assert.equal(new Set(read.map((s) => s.id)).size, read.length, "ids stay unique within the trace");
    assert.ok(read.slice(1).every((s) => s.id < 0 && s.traceId === traceId && s.durationMs > 0));
    assert.deepEqual(
      (await t.store.traceSpans(o.id, otherTrace, 100)).map((s) => [s.spanId, s.id > 0]),
      [[hex(0xc5, 16), true]],
    );
    assert.deepEqual(
      (await t.store.traceSpans(o.id, traceId, 3)).map((s) => s.spanId),
      ["a".repeat(16), hex(0xc4, 16), hex(0xc3, 16)],
      "the limit holds, by start",
    );

    // A child stored as a row (as the digest stored every child before) is read once: as its row.
    const [row] = read.filter((s) => s.spanId === hex(0xc2, 16));
    const { id: _, projectSlug: __, ...fields } = row!;
    await t.db.kysely
      .insertInto("spans")
      .values({
        project_id: fields.projectId,
        trace_id: fields.traceId,
        span_id: fields.spanId,
        parent_span_id: fields.parentSpanId,
        segment_id: fields.segmentId,
        is_segment: t.db.dialect === "postgres" ? false : 0,
        transaction: fields.transaction,
        op: fields.op,
        description: fields.description,
        status: fields.status,
        start_time: fields.startTime,
        duration_ms: fields.durationMs,
        environment: fields.environment,
        release: fields.release,
        event_id: null,
        received_at: new Date().toISOString(),
      } as never)
      .execute();
    const again = await t.store.traceSpans(o.id, traceId, 100);
    assert.deepEqual(
      again.map((s) => s.spanId),
      read.map((s) => s.spanId),
    );
    assert.ok(again.find((s) => s.spanId === hex(0xc2, 16))!.id > 0, "the row, not the event's copy");

    // An event whose stored data no longer decodes (damaged on disk) leaves its transaction without children; the
    // trace still shows, with its rows.
    await t.db.kysely
      .updateTable("events")
      .set({ data: Buffer.from([0x01, 0xff, 0x00, 0x13]) } as never)
      .where("project_id", "=", api.id)
      .where("event_id", "=", eventId)
      .execute();
    assert.deepEqual(
      (await t.store.traceSpans(o.id, traceId, 100)).map((s) => s.spanId),
      ["a".repeat(16), hex(0xc2, 16)],
    );
  });
}
