// Structured logs end to end (issue 19), on SQLite and PostgreSQL: the official @sentry/node 11.5.0 with enableLogs
// sends Sentry.logger.info/warn/error with attributes through the real intake, spool and digest; the core's logs page
// reads them with their level, attributes, trace and release, finds them by words, key:value and level, and the trace's
// lines; the default data scrubbing filtered the password attribute; outcomes count log_item and log_byte. Hostile
// items (NUL, a megabyte body, 10,000 attributes, deep nesting, huge numbers, bad levels, missing fields) are stored
// trimmed with notes or dropped with an outcome, never stopping the digest; an otel_log item is read as Relay reads it.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { LOG_LIMITS } from "../../src/config/limits";
import { listProjectLogs, listTraceLogs } from "../../src/core/logs";
import type { OpenDbOptions } from "../../src/storage/db";
import { type TestIntake, type TestProject, startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";

function runSdk(args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { timeout: 30_000 }, (err, out, stderr) =>
      err ? reject(new Error(`${args[0]}: ${stderr || err.message}`)) : resolve(out.trim()),
    ),
  );
}

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`structured logs with @sentry/node on ${dialect}`, { timeout: 300_000 }, () => {
    let t: TestIntake;
    let drop: (() => Promise<void>) | undefined;
    const marker = `lg${randomBytes(5).toString("hex")}`;
    before(async () => {
      let db: OpenDbOptions | undefined;
      if (dialect === "postgres") {
        const fresh = await freshPgDatabase(`logs_${randomBytes(4).toString("hex")}`);
        drop = fresh.drop;
        db = { dialect: "postgres", url: fresh.url };
      }
      t = await startTestIntake({ db });
    });
    after(async () => {
      await t?.close();
      await drop?.();
    });
    const owner = () => t.core.as(t.owner);
    const logs = async (p: TestProject, input: Record<string, string> = {}) => (await listProjectLogs(owner(), t.org, p.slug, input, 100)).items;
    const send = async (p: TestProject, header: string, payload: string) => {
      const res = await fetch(t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`), { method: "POST", body: `{}\n${header}\n${payload}\n` });
      assert.equal(res.status, 200, `${header}: ${await res.text()}`);
    };
    const totals = async (p: TestProject) => await t.core.store.outcomeTotals(p.id, "2000-01-01T00:00:00Z");
    const total = async (p: TestProject, category: string, outcome: string, reason = "") =>
      (await totals(p))
        .filter((o) => o.category === category && o.outcome === outcome && (reason === "" || o.reason === reason))
        .reduce((n, o) => n + o.quantity, 0);

    test("@sentry/node 11.5.0 logger.info/warn/error: stored with level, body, attributes, trace, release and environment; found by search", async () => {
      const p = t.projects[0];
      const traceId = await runSdk(["tests/ingest/sdk/node-logs.mjs", p.dsn, marker]);
      await t.settle();
      assert.match(traceId, /^[0-9a-f]{32}$/);
      const mine = (await logs(p)).filter((l) => l.body.startsWith(marker));
      assert.deepEqual(mine.map((l) => l.level).sort(), ["error", "info", "warn"]);
      const info = mine.find((l) => l.level === "info")!;
      assert.equal(info.body, `${marker} user signed in`);
      assert.deepEqual(info.attributes["user.id"], { type: "string", value: "42" });
      assert.deepEqual(info.attributes.plan, { type: "string", value: "pro" });
      assert.equal(info.severityNumber, 9);
      assert.equal(info.traceId, traceId);
      assert.match(info.spanId ?? "", /^[0-9a-f]{16}$/, "the active span, from sentry.trace.parent_span_id");
      assert.equal(info.release, "logs-node@1.0");
      assert.equal(info.environment, "sdk-test");
      assert.equal(info.attributes["sentry.sdk.name"]?.value, "sentry.javascript.node");
      const warn = mine.find((l) => l.level === "warn")!;
      assert.equal(warn.body, `${marker} cart holds 3 items`);
      assert.equal(warn.attributes["sentry.message.template"]?.value, "%s cart holds %s items");
      assert.deepEqual(warn.attributes["sentry.message.parameter.1"], { type: "integer", value: 3 });
      assert.deepEqual(warn.attributes.cart_size, { type: "integer", value: 3 });
      const error = mine.find((l) => l.level === "error")!;
      assert.deepEqual(error.attributes.order_id, { type: "integer", value: 1234 });
      assert.deepEqual(error.attributes.retry, { type: "boolean", value: true });
      assert.deepEqual(error.attributes.amount, { type: "double", value: 9.99 });
      assert.deepEqual(error.attributes.password, { type: "string", value: "[Filtered]" }, "the default data scrubbing filters it, as Relay");
      assert.ok(error.meta?.scrubbed, "with the scrubbing's remark");
      // Searches, as the page runs them.
      const bodies = async (input: Record<string, string>) => (await logs(p, input)).map((l) => l.body);
      assert.deepEqual(await bodies({ query: `${marker} paym` }), [`${marker} payment failed`]);
      assert.deepEqual(await bodies({ query: `${marker} user.id:42` }), [`${marker} user signed in`]);
      assert.deepEqual(await bodies({ query: `${marker} order_id:1234 retry:true` }), [`${marker} payment failed`]);
      assert.deepEqual(await bodies({ query: marker, level: "warn" }), [`${marker} cart holds 3 items`]);
      assert.deepEqual(await bodies({ query: `${marker} level:error` }), [`${marker} payment failed`]);
      assert.deepEqual(await bodies({ query: "hunter2" }), [], "the scrubbed value is not in the index");
      assert.equal((await bodies({ trace: traceId })).length, 3);
      assert.deepEqual(
        (await listTraceLogs(owner(), t.org, traceId)).map((l) => l.level),
        mine
          .map((l) => l.level)
          .reverse()
          .sort((a, b) => ["info", "warn", "error"].indexOf(a) - ["info", "warn", "error"].indexOf(b)),
      );
      assert.ok((await total(p, "log_item", "accepted")) >= 3);
      assert.ok((await total(p, "log_byte", "accepted")) > 0);
    });

    test("an otel_log item is read as Relay reads it: level from the severity number, body, attributes, trace and span", async () => {
      const p = t.projects[1];
      const record = {
        timeUnixNano: String(BigInt(Date.now() - 5000) * 1_000_000n),
        severityNumber: 18,
        severityText: "ERROR",
        traceId: "5b8efff798038103d269b633813fc60c",
        spanId: "eee19b7ec3c1b174",
        body: { stringValue: `${marker} otel line` },
        attributes: [
          { key: "db.system", value: { stringValue: "postgresql" } },
          { key: "rows", value: { intValue: "12" } },
          { key: "list", value: { arrayValue: { values: [] } } },
        ],
      };
      await send(p, '{"type":"otel_log"}', JSON.stringify(record));
      await t.settle();
      const [line] = (await logs(p)).filter((l) => l.body === `${marker} otel line`);
      assert.ok(line);
      assert.equal(line.level, "error");
      assert.equal(line.traceId, "5b8efff798038103d269b633813fc60c");
      assert.equal(line.spanId, "eee19b7ec3c1b174");
      assert.deepEqual(line.attributes["db.system"], { type: "string", value: "postgresql" });
      assert.deepEqual(line.attributes.rows, { type: "integer", value: 12 });
      assert.equal(line.attributes.list, undefined, "arrays are left out, as Relay leaves them");
    });

    test("hostile log items are trimmed with notes or dropped with an outcome; the digest goes on", async () => {
      const p = t.projects[1];
      const now = Date.now() / 1000;
      const base = { timestamp: now, trace_id: "0123456789abcdef0123456789abcdef", level: "info", attributes: {} };
      const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, { type: "string", value: `v${i}` }]));
      const deep = JSON.parse(`${"[".repeat(50)}1${"]".repeat(50)}`) as unknown;
      const items = [
        { ...base, body: `${marker} nul\u0000body`, attributes: { "ke\u0000y": { type: "string", value: "va\u0000lue" } } },
        { ...base, body: `${marker} huge ${"x".repeat(1_000_000)}` },
        { ...base, body: `${marker} too large ${"x".repeat(1_100_000)}` },
        { ...base, body: `${marker} many attributes`, attributes: many },
        { ...base, body: `${marker} deep`, attributes: { deep: { type: "string", value: deep } } },
        {
          ...base,
          body: `${marker} numbers`,
          attributes: {
            inf: { type: "double", value: "__INF__" },
            beyond: { type: "integer", value: 2 ** 70 },
            big: { type: "integer", value: 1e19 },
            text: { type: "integer", value: "1544712660300000000" },
          },
        },
        { ...base, body: `${marker} loud`, level: "LOUD" },
        { ...base, body: `${marker} by number`, level: undefined, severity_number: 14 },
        { ...base, body: `${marker} no time`, timestamp: undefined },
        { ...base, body: `${marker} future`, timestamp: now + 86_400 },
        { ...base, body: `${marker} bad trace`, trace_id: "zzz" },
        { ...base, body: undefined },
        "not a log",
      ];
      await send(
        p,
        '{"type":"log","item_count":13,"content_type":"application/vnd.sentry.items.log+json"}',
        JSON.stringify({ items }).replace('"__INF__"', "1e400"),
      );
      await send(p, '{"type":"log"}', "{not json");
      await send(p, '{"type":"log"}', JSON.stringify({ items: { a: 1 } }));
      await send(p, '{"type":"log"}', `{"items":[${"[".repeat(200)}${"]".repeat(200)}]}`);
      await send(p, '{"type":"log"}', JSON.stringify({ items: [{ ...base, body: `${marker} after the storm` }] }));
      await t.settle();
      const stored = new Map((await logs(p, { query: marker })).map((l) => [l.body.slice(marker.length + 1, marker.length + 20).split(" ")[0]!, l]));
      assert.ok(stored.get("after"), "the digest went on");
      const nul = stored.get("nulbody")!;
      assert.equal(nul.body, `${marker} nulbody`);
      assert.deepEqual(nul.attributes.key, { type: "string", value: "value" });
      const huge = stored.get("huge")!;
      assert.equal(huge.body.length, LOG_LIMITS.maxBodyLength);
      assert.deepEqual(huge.meta?.notes, [`body: cut to ${LOG_LIMITS.maxBodyLength} characters`]);
      assert.equal(stored.has("too"), false, "over Relay's 1 MiB: dropped");
      assert.equal(Object.keys(stored.get("many")!.attributes).length, LOG_LIMITS.maxAttributes);
      assert.deepEqual(stored.get("many")!.meta?.notes, [
        `attributes: ${10_000 - LOG_LIMITS.maxAttributes} beyond the first ${LOG_LIMITS.maxAttributes} dropped`,
      ]);
      assert.equal(stored.get("deep")!.attributes.deep?.type, "string", "nested values kept as bounded JSON text");
      const numbers = stored.get("numbers")!;
      assert.equal(numbers.attributes.inf, undefined);
      assert.equal(numbers.attributes.beyond, undefined);
      assert.deepEqual(numbers.attributes.big, { type: "integer", value: "10000000000000000000" });
      assert.deepEqual(numbers.attributes.text, { type: "integer", value: "1544712660300000000" });
      assert.equal(numbers.meta?.notes?.length, 2);
      assert.equal(stored.get("loud")!.level, "info");
      assert.deepEqual(stored.get("loud")!.meta?.notes, ['level: "LOUD", read as info']);
      assert.equal(stored.get("by")!.level, "warn");
      assert.ok(Math.abs(Date.parse(stored.get("no")!.timestamp) - Date.now()) < 120_000, "the arrival time");
      assert.ok(Date.parse(stored.get("future")!.timestamp) < Date.now() + 60_000);
      assert.equal(stored.get("bad")!.traceId, null);
      assert.equal(await total(p, "log_item", "invalid", "too_large"), 1);
      assert.equal(await total(p, "log_item", "invalid", "no_body"), 1);
      assert.equal(await total(p, "log_item", "invalid", "invalid_log"), 1);
      assert.equal(await total(p, "log_item", "invalid", "invalid_json"), 2, "broken JSON and JSON nested past 128 levels");
      assert.equal(await total(p, "log_item", "invalid", "no_items"), 1);
    });

    test("a log_item quota: past it the intake answers 429 naming log_item, and counts the lines as rate limited", async () => {
      const p = t.projects[1];
      await t.core.store.updateProject(p.id, { quotas: { log_item: { count: 3, windowSeconds: 3600 } } });
      await new Promise((r) => setTimeout(r, 2100)); // the key cache's TTL
      const envelope = (n: number) =>
        `{}\n{"type":"log","item_count":${n}}\n${JSON.stringify({ items: Array.from({ length: n }, () => ({ timestamp: Date.now() / 1000, level: "info", body: `${marker} quota` })) })}\n`;
      const url = t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`);
      const ok = await fetch(url, { method: "POST", body: envelope(3) });
      assert.equal(ok.status, 200);
      await new Promise((r) => setTimeout(r, 300));
      const limited = await fetch(url, { method: "POST", body: envelope(2) });
      assert.equal(limited.status, 429);
      assert.match(limited.headers.get("x-sentry-rate-limits") ?? "", /log_item/);
      await t.settle();
      assert.equal(await total(p, "log_item", "rate_limited"), 2);
      await t.core.store.updateProject(p.id, { quotas: {} });
    });
  });
}
