// Legacy interface names read as the current fields, as Relay reads them (relay-event-schema protocol/event.rs,
// exception.rs, breadcrumb.rs, mechanism.rs, debugmeta.rs: `#[metastructure(legacy_alias = …)]` and the legacy
// mechanism): Relay's rules one by one, then Sentry's own sample events (fixtures/sentry-samples, from getsentry/sentry
// src/sentry/data/samples) through the digest, as Sentry shows them.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { type DigestedEvent, digestRows } from "../../src/digest/items";
import { normalizeEvent, type NormalizedEvent } from "../../src/digest/normalize";
import { readLegacyNames } from "../../src/digest/normalize/legacy-names";

const RECEIVED = 1_767_225_600_000;
const sample = (name: string): Record<string, unknown> => JSON.parse(readFileSync(new URL(`fixtures/sentry-samples/${name}.json`, import.meta.url), "utf8"));
const normalize = (input: Record<string, unknown>): NormalizedEvent =>
  normalizeEvent(input, { receivedAt: RECEIVED, eventId: "52df9022835246eeb317dbd739ccd059", itemType: "event" }).event;
const renamed = (input: Record<string, unknown>) => {
  readLegacyNames(input);
  return input;
};

let ids = 0;
/** Events through the digest as the worker digests spool rows: normalized, summarized, grouped. */
async function digest(...payloads: Record<string, unknown>[]): Promise<DigestedEvent[]> {
  const rows = payloads.map((payload) => {
    const eventId = (++ids).toString(16).padStart(32, "0");
    return {
      kind: "item" as const,
      id: ids,
      projectId: 1,
      keyId: 1,
      receivedAt: RECEIVED,
      itemType: "event",
      eventId,
      headers: "{}",
      meta: "{}",
      payload: Buffer.from(JSON.stringify(payload)),
    };
  });
  return (await digestRows(rows)).events;
}

/** A sample as Sentry's `load_data` (src/sentry/utils/samples.py) sends it: the platform set, a message if none. */
function asSentryLoadsIt(name: string, platform: string, sampleName: string): Record<string, unknown> {
  const data = sample(name);
  data.platform = platform;
  // `"message" in data` on Sentry's CanonicalKeyDict also finds logentry and sentry.interfaces.Message.
  if (!["message", "logentry", "sentry.interfaces.Message"].some((k) => k in data)) data.message = `This is an example ${sampleName} exception`;
  return data;
}

describe("legacy names (relay-event-schema legacy_alias)", () => {
  test("every sentry.interfaces.* name of event.rs becomes its current field", () => {
    const value = (n: number) => ({ marker: n });
    const aliases: Record<string, string> = {
      "sentry.interfaces.Message": "logentry",
      "sentry.interfaces.User": "user",
      "sentry.interfaces.Http": "request",
      "sentry.interfaces.Contexts": "contexts",
      "sentry.interfaces.Breadcrumbs": "breadcrumbs",
      "sentry.interfaces.Exception": "exception",
      "sentry.interfaces.Stacktrace": "stacktrace",
      "sentry.interfaces.Template": "template",
      "sentry.interfaces.Csp": "csp",
      "sentry.interfaces.Hpkp": "hpkp",
      "sentry.interfaces.ExpectCT": "expectct",
      "sentry.interfaces.ExpectStaple": "expectstaple",
    };
    const input = Object.fromEntries(Object.keys(aliases).map((legacy, i) => [legacy, value(i)]));
    const out = renamed(input);
    assert.deepEqual(out, Object.fromEntries(Object.values(aliases).map((current, i) => [current, value(i)])));
  });

  test("the current name wins when present, even as null, and the alias is dropped (relay-protocol-derive `.or`)", () => {
    assert.deepEqual(renamed({ exception: null, "sentry.interfaces.Exception": { values: [{ type: "E" }] } }), { exception: null });
    assert.deepEqual(renamed({ user: { id: "1" }, "sentry.interfaces.User": { id: "2" } }), { user: { id: "1" } });
    // logentry's aliases in Relay's order: sentry.interfaces.Message before message (message is left to logentry.ts).
    assert.deepEqual(normalize({ "sentry.interfaces.Message": { message: "from the interface" }, message: "plain" }).logentry, {
      formatted: "from the interface",
    });
  });

  test("inside the interfaces: an exception's sentry.interfaces.Stacktrace, a breadcrumb's ty, a native image's name and id", () => {
    const event = normalize({
      "sentry.interfaces.Exception": {
        values: [{ type: "ValueError", value: "bad", "sentry.interfaces.Stacktrace": { frames: [{ function: "main", filename: "app.py" }] } }],
      },
      "sentry.interfaces.Breadcrumbs": { values: [{ ty: "http", message: "GET /" }] },
      debug_meta: {
        images: [
          { type: "elf", name: "/lib/libc.so.6", id: "c0bcc3f1-9827-fe65-3058-404b2831d9e6", image_addr: "0x0" },
          { type: "sourcemap", name: "kept as sent", code_file: "https://example.com/app.js", debug_id: "395835f4-03e0-4436-80d3-136f0749a893" },
        ],
      },
    });
    assert.deepEqual((event.exception?.values[0]?.stacktrace as { frames: unknown[] }).frames, [{ function: "main", filename: "app.py", abs_path: "app.py" }]);
    assert.equal(event.exception?.values[0]?.["sentry.interfaces.Stacktrace"], undefined);
    assert.deepEqual(event.breadcrumbs?.values[0], { message: "GET /", type: "http", level: "info" });
    const [elf, sourcemap] = (event.debug_meta as { images: Record<string, unknown>[] }).images;
    assert.deepEqual(elf, { type: "elf", code_file: "/lib/libc.so.6", debug_id: "c0bcc3f1-9827-fe65-3058-404b2831d9e6", image_addr: "0x0" });
    assert.equal(sourcemap?.name, "kept as sent", "a source map image has no legacy aliases");
  });

  test("a mechanism without a type is Relay's legacy mechanism: generic, its fields as data, its signal and mach exception under meta", () => {
    const event = normalize({
      exception: {
        values: [
          {
            type: "EXC_BAD_ACCESS",
            mechanism: {
              posix_signal: { signal: 11, code: 0, name: "SIGSEGV", code_name: "SEGV_NOOP" },
              mach_exception: { exception: 1, code: 1, subcode: 8, exception_name: "EXC_BAD_ACCESS" },
              relevant_address: "0x1",
            },
          },
        ],
      },
    });
    assert.deepEqual(event.exception?.values[0]?.mechanism, {
      type: "generic",
      data: { relevant_address: "0x1" },
      meta: {
        signal: { number: 11, code: 0, name: "SIGSEGV", code_name: "SEGV_NOOP" },
        mach_exception: { exception: 1, code: 1, subcode: 8, name: "EXC_BAD_ACCESS" },
      },
    });
    assert.deepEqual(normalize({ exception: { values: [{ type: "E", mechanism: { type: "onerror", handled: false } }] } }).exception?.values[0]?.mechanism, {
      type: "onerror",
      handled: false,
    });
  });

  test("hostile input #15: Sentry's sample events become the events and issues Sentry shows: type, title, culprit, request, user, breadcrumbs", async () => {
    const [php, java, javascript, python] = await digest(
      asSentryLoadsIt("php", "php", "PHP"),
      asSentryLoadsIt("java", "java", "Java"),
      asSentryLoadsIt("javascript", "javascript", "JavaScript"),
      asSentryLoadsIt("python", "python", "Python"),
    );
    const shown = (e: DigestedEvent | undefined) => ({ type: e?.type, title: e?.title, culprit: e?.culprit, platform: e?.platform });
    assert.deepEqual(shown(php), {
      type: "error",
      title: "Exception: This is a test exception sent from the Raven CLI.",
      culprit: "raven in raven_cli_test",
      platform: "php",
    });
    assert.deepEqual(shown(java), {
      type: "error",
      title: "ApiException: Authentication failed, token expired!",
      culprit: "io.sentry.example.ApiRequest in perform",
      platform: "java",
    });
    assert.deepEqual(shown(javascript), {
      type: "error",
      title: "TypeError: Object [object Object] has no method 'updateFrom'",
      culprit: "views.js in updateMember",
      platform: "javascript",
    });
    assert.deepEqual({ type: python?.type, title: python?.title }, { type: "default", title: "This is an example Python exception" });

    const data = JSON.parse(java!.data) as NormalizedEvent;
    assert.deepEqual(data.user, { email: "user@sentry.io", ip_address: "0:0:0:0:0:0:0:1", username: "user", data: { account_level: "premium" } });
    assert.equal(data.request?.url, "http://localhost:8080/");
    assert.equal(data.request?.method, "GET");
    assert.deepEqual(data.request?.query_string, [["logged_in", "1"]]);
    assert.deepEqual(
      data.breadcrumbs?.values.map((b) => b.message),
      ["Querying for user.", "User found: user@sentry.io", "Loaded homepage content from memcached.", "Sidebar content not in cache, hitting API server."],
    );
    assert.deepEqual(data.logentry, { formatted: "Authentication failed, token expired!" });
    assert.equal(JSON.parse(java!.metadata).type, "ApiException");
    const legacyLeft = (e: DigestedEvent | undefined) => Object.keys(JSON.parse(e!.data) as object).filter((k) => k.startsWith("sentry.interfaces."));
    for (const e of [php, java, javascript, python]) assert.deepEqual(legacyLeft(e), [], "no legacy name is kept as an unknown field");
    assert.equal(((JSON.parse(python!.data) as NormalizedEvent).stacktrace as { frames: unknown[] }).frames.length, 5, "the top-level stack trace is kept");
  });

  test("hostile input #15: the samples as raven sent them (no message) are errors and one issue each, not one <unlabeled event> for all", async () => {
    const events = await digest(sample("php"), sample("java"), sample("javascript"), sample("python"));
    // The Python sample has only a stack trace and no message: Sentry titles it <unlabeled event> too, and groups it
    // by that stack trace.
    assert.deepEqual(
      events.map((e) => e.type),
      ["error", "error", "error", "default"],
    );
    const hashes = events.map((e) => e.grouping?.hashes ?? []);
    for (let i = 0; i < hashes.length; i++) {
      for (let j = i + 1; j < hashes.length; j++)
        assert.deepEqual(
          hashes[i]!.filter((h) => hashes[j]!.includes(h)),
          [],
          `samples ${i} and ${j} share no grouping hash`,
        );
    }
  });
});
