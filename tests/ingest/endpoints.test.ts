// The intake over real HTTP, with a real spool and digest worker on SQLite: each endpoint, every place SDKs put
// their credentials, CORS, encodings, Relay's answers, and deduplication by event id.
import assert from "node:assert/strict";
import { gzipSync, deflateSync, brotliCompressSync } from "node:zlib";
import { after, before, describe, test } from "node:test";
import { type TestIntake, type TestProject, startTestIntake } from "../helpers/intake";

let t: TestIntake;
let p: TestProject;
before(async () => {
  t = await startTestIntake();
  p = t.projects[0];
});
after(() => t.close());

const hex = () => crypto.randomUUID().replace(/-/g, "");
const envelope = (id: string, event: object, header: object = {}) =>
  `${JSON.stringify({ event_id: id, ...header })}\n{"type":"event"}\n${JSON.stringify(event)}\n`;
const keyQuery = (proj: TestProject = p) => `?sentry_key=${proj.key.publicKey}&sentry_version=7`;
const post = (url: string, body: string | Buffer, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]), headers });

describe("intake endpoints", () => {
  test("envelope: a browser-style text/plain post with query auth is stored in its project, with CORS headers", async () => {
    const id = hex();
    const r = await post(
      t.url("envelope", p, keyQuery()),
      envelope(id, { exception: { values: [{ type: "TypeError", value: "x is undefined" }] }, platform: "javascript" }),
      { "content-type": "text/plain;charset=UTF-8", origin: "https://app.example" },
    );
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { id });
    assert.equal(r.headers.get("access-control-allow-origin"), "*");
    assert.match(r.headers.get("access-control-expose-headers") ?? "", /x-sentry-rate-limits/);
    const e = await t.waitForEvent(p, id);
    assert.equal(e.title, "TypeError: x is undefined");
    assert.equal(e.type, "error");
    assert.equal(await t.core.store.getEvent(t.projects[1].id, id), null);
  });

  test("CORS preflight answers OPTIONS with the allowed headers", async () => {
    const r = await fetch(t.url("envelope"), { method: "OPTIONS", headers: { origin: "https://app.example", "access-control-request-method": "POST" } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("access-control-allow-origin"), "*");
    assert.match(r.headers.get("access-control-allow-headers") ?? "", /x-sentry-auth/);
    assert.match(r.headers.get("access-control-allow-methods") ?? "", /POST/);
  });

  test("the trailing slash is optional", async () => {
    const id = hex();
    const r = await post(`${t.origin}/api/${p.id}/envelope${keyQuery()}`, envelope(id, { message: "no slash" }));
    assert.equal(r.status, 200);
    await t.waitForEvent(p, id);
  });

  test("auth: X-Sentry-Auth with version 5 and 7, Authorization: Sentry, and a tunnelled envelope's dsn", async () => {
    const ids = [hex(), hex(), hex(), hex()];
    const auth = (v: number) => `Sentry sentry_key=${p.key.publicKey}, sentry_version=${v}, sentry_client=test/1.0`;
    assert.equal((await post(t.url("envelope"), envelope(ids[0]!, { message: "v7" }), { "x-sentry-auth": auth(7) })).status, 200);
    assert.equal((await post(t.url("store"), JSON.stringify({ event_id: ids[1], message: "v5" }), { "x-sentry-auth": auth(5) })).status, 200);
    assert.equal((await post(t.url("envelope"), envelope(ids[2]!, { message: "authz" }), { authorization: auth(7) })).status, 200);
    assert.equal((await post(t.url("envelope"), envelope(ids[3]!, { message: "tunnel" }, { dsn: p.dsn }))).status, 200);
    for (const id of ids) await t.waitForEvent(p, id);
  });

  test("auth failures: missing (401), several at once (401), version above 7 (400), unknown key (403), another project's key (403), a disabled key (403), dsn mismatch (400)", async () => {
    const body = envelope(hex(), { message: "refused" });
    const cases: [string, Promise<Response>, number][] = [
      ["missing", post(t.url("envelope"), body), 401],
      ["multiple", post(t.url("envelope", p, keyQuery()), body, { "x-sentry-auth": `Sentry sentry_key=${p.key.publicKey}` }), 401],
      ["version", post(t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=8`), body), 400],
      ["unknown", post(t.url("envelope", p, "?sentry_key=ffffffffffffffffffffffffffffffff"), body), 403],
      ["other project", post(t.url("envelope", t.projects[1], keyQuery(p)), body), 403],
      ["dsn mismatch", post(t.url("envelope", p, keyQuery()), envelope(hex(), {}, { dsn: t.projects[1].dsn })), 400],
    ];
    for (const [name, res, status] of cases) {
      const r = await res;
      assert.equal(r.status, status, name);
      const detail = ((await r.json()) as { detail: string }).detail;
      assert.ok(detail.length > 0, name);
      assert.equal(r.headers.get("x-sentry-error"), detail, name);
    }
    const other = t.projects[1];
    await t.core.store.updateKey(other.id, other.key.id, { isActive: false });
    await new Promise((r) => setTimeout(r, 2100)); // the key cache's TTL
    const r = await post(t.url("envelope", other, keyQuery(other)), body);
    assert.equal(r.status, 403);
    assert.match((await r.json()).detail, /disabled/);
    await t.core.store.updateKey(other.id, other.key.id, { isActive: true });
  });

  test("store: plain JSON, gzip, deflate, br, base64 and base64+zlib bodies (sentry-raven), NaN in the JSON", async () => {
    const json = (id: string) => JSON.stringify({ event_id: id, message: `store ${id}`, platform: "python", extra: { big: 1 } });
    const ids = Array.from({ length: 6 }, hex);
    const auth = { "x-sentry-auth": `Sentry sentry_key=${p.key.publicKey}, sentry_version=7` };
    const sends = [
      post(t.url("store"), json(ids[0]!), auth),
      post(t.url("store"), gzipSync(json(ids[1]!)), { ...auth, "content-encoding": "gzip" }),
      post(t.url("store"), deflateSync(json(ids[2]!)), { ...auth, "content-encoding": "deflate" }),
      post(t.url("store"), brotliCompressSync(json(ids[3]!)), { ...auth, "content-encoding": "br" }),
      post(t.url("store"), Buffer.from(json(ids[4]!)).toString("base64"), { ...auth, "content-type": "application/octet-stream" }),
      post(t.url("store"), deflateSync(json(ids[5]!).replace('"big":1', '"big":NaN')).toString("base64"), {
        ...auth,
        "content-type": "application/octet-stream",
        "content-encoding": "",
      }),
    ];
    for (const [i, r] of (await Promise.all(sends)).entries()) {
      assert.equal(r.status, 200, `body ${i}`);
      assert.deepEqual(await r.json(), { id: ids[i] });
    }
    for (const id of ids) assert.equal((await t.waitForEvent(p, id)).title, `store ${id}`);
    const nan = JSON.parse((await t.waitForEvent(p, ids[5]!)).data);
    assert.equal(nan.extra.big, null);
  });

  test("security: a CSP report (csp-report alias, sentry_key in the query) becomes an event", async () => {
    const report = {
      "csp-report": {
        "document-uri": "https://app.example/page",
        "blocked-uri": "https://evil.example/x.js",
        "effective-directive": "script-src-elem",
        "violated-directive": "script-src-elem",
      },
    };
    const r = await post(`${t.origin}/api/${p.id}/csp-report/?sentry_key=${p.key.publicKey}&sentry_release=web@1.2`, JSON.stringify(report), {
      "content-type": "application/csp-report",
    });
    assert.equal(r.status, 200);
    await t.settle();
    const events = await t.core.store.listEvents(p.id, "errors", { limit: 100 });
    const csp = events.items.find((e) => e.type === "csp");
    assert.ok(csp, "no csp event stored");
    assert.equal(csp.title, "Blocked 'script' from 'evil.example'");
    assert.equal(csp.release, "web@1.2");
    const bad = await post(`${t.origin}/api/${p.id}/security/?sentry_key=${p.key.publicKey}`, JSON.stringify({ hello: 1 }));
    assert.equal(bad.status, 400);
  });

  test("the same event id sent twice is stored once, and counted once as a duplicate", async () => {
    const id = hex();
    for (let i = 0; i < 2; i++) assert.equal((await post(t.url("envelope", p, keyQuery()), envelope(id, { message: `copy ${i}` }))).status, 200);
    await t.settle();
    const all = await t.core.store.listEvents(p.id, "errors", { limit: 100 });
    assert.equal(all.items.filter((e) => e.eventId === id).length, 1);
    assert.equal(all.items.find((e) => e.eventId === id)?.title, "copy 0");
    const totals = await t.core.store.outcomeTotals(p.id, "2000-01-01T00:00:00Z");
    assert.ok(totals.some((o) => o.outcome === "invalid" && o.reason === "duplicate" && o.quantity >= 1));
  });

  test("the envelope header's event_id wins over the payload's; a missing one is generated", async () => {
    const header = hex();
    const r = await post(t.url("envelope", p, keyQuery()), envelope(header, { event_id: hex(), message: "header wins" }));
    assert.deepEqual(await r.json(), { id: header });
    const stored = JSON.parse((await t.waitForEvent(p, header)).data) as { event_id: string; received: number; logentry: { formatted: string } };
    assert.equal(stored.event_id, header, "the stored document carries the header's id, not the payload's");
    assert.ok(Math.abs(stored.received - Date.now() / 1000) < 60, "and the time it was received");
    assert.equal(stored.logentry.formatted, "header wins", "normalized: a message string becomes the log entry");
    const none = await post(t.url("envelope", p, keyQuery()), `{}\n{"type":"event"}\n{"message":"no id"}`);
    const { id } = (await none.json()) as { id: string };
    assert.match(id, /^[0-9a-f]{32}$/);
    await t.waitForEvent(p, id);
  });

  test("non-event envelopes (sessions, client reports) answer {}; unknown item types are skipped, not refused", async () => {
    const session = JSON.stringify({ sid: hex(), started: new Date().toISOString(), status: "ok", attrs: { release: "web@1" } });
    const body = `{}\n{"type":"session"}\n${session}\n{"type":"statsd","length":3}\nabc\n{"type":"brand_new_thing"}\n{}\n`;
    const r = await post(t.url("envelope", p, keyQuery()), body);
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), {});
  });

  test("refusals: empty body 400, bad envelope 400, invalid event JSON 400, oversized item 413, two events 400, non-POST 405", async () => {
    const big = JSON.stringify({ message: "x".repeat(1024 * 1024 + 10) });
    const cases: [string, Response, number][] = [
      ["empty", await post(t.url("envelope", p, keyQuery()), ""), 400],
      ["bad header", await post(t.url("envelope", p, keyQuery()), "not json\n"), 400],
      ["bad event", await post(t.url("envelope", p, keyQuery()), `{}\n{"type":"event"}\n{"message":`), 400],
      ["big event", await post(t.url("envelope", p, keyQuery()), `{}\n{"type":"event"}\n${big}`), 413],
      ["two events", await post(t.url("envelope", p, keyQuery()), `{}\n{"type":"event"}\n{}\n{"type":"event"}\n{}`), 400],
      ["get", await fetch(t.url("envelope", p, keyQuery())), 405],
    ];
    for (const [name, r, status] of cases) {
      assert.equal(r.status, status, name);
      assert.ok(r.headers.get("x-sentry-error"), name);
    }
  });

  test("a decompression bomb is refused with 413 while inflating", async () => {
    const bomb = gzipSync(Buffer.alloc(150 * 1024 * 1024, 0x20));
    const r = await post(t.url("envelope", p, keyQuery()), bomb, { "content-encoding": "gzip" });
    assert.equal(r.status, 413);
  });
});
