// Symbolication of JavaScript frames (digest/symbolicate) against real esbuild bundles and maps in a temporary
// directory. The uploaded files are served by `dirArtifacts` (an ArtifactReads over a Map of files on disk), since
// this suite tests the symbolicator's logic, not storage.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { SYMBOLICATION_LIMITS } from "../../src/config/limits";
import { groupEvent } from "../../src/digest/grouping";
import { normalizeEvent } from "../../src/digest/normalize";
import { SourceMapCache, Symbolicator } from "../../src/digest/symbolicate";
import { type Bundle, buildBundle, crashFrames, dirArtifacts, jsEvent } from "../helpers/js-bundles";
import type { TestJson } from "../helpers/json";

type Json = Record<string, TestJson>;
const URL_A = "https://shop.example.com/static/app.js";
const project = { id: 1, scrapeJavaScript: false };
let dir: string;
let a: Bundle;
let b: Bundle;

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "faultline-symbolicate-"));
  a = await buildBundle(dir, "a");
  b = await buildBundle(dir, "b");
});
after(() => rmSync(dir, { recursive: true, force: true }));

const normalized = (raw: Json): Json =>
  normalizeEvent(raw, { receivedAt: Date.now(), eventId: raw.event_id, clientIp: null, itemType: "event", ownsInput: true }).event as Json;
const framesOf = (e: Json): Json[] => e.exception.values[0].stacktrace.frames;
const releaseFiles = (bundle: Bundle, release: string, prefix = "~/static") =>
  new Map([
    [`${prefix}/app.js`, { path: bundle.js, type: "minified_source" as const, release }],
    [`${prefix}/app.js.map`, { path: bundle.map, type: "source_map" as const, release }],
  ]);

describe("symbolication by release and URL (legacy uploads)", () => {
  test("frames are mapped to the original file, function, line, column and source lines; the raw frames are kept", async () => {
    const { artifacts } = dirArtifacts({ byUrl: releaseFiles(a, "shop@1") });
    const event = normalized(jsEvent(crashFrames(a, URL_A), { release: "shop@1" }));
    const sent = structuredClone(framesOf(event));
    await new Symbolicator({ artifacts, fetcher: null }).symbolicate(event, project);
    const frames = framesOf(event);
    const top = frames[frames.length - 1]!;
    assert.equal(top.filename, "/src/cart.ts");
    assert.equal(top.abs_path, "https://shop.example.com/src/cart.ts");
    assert.equal(top.lineno, 6);
    assert.equal(top.context_line, '    if (item.qty < 0) throw new RangeError("negative quantity for " + item.price);');
    assert.deepEqual(top.pre_context.slice(-2), ["  let total = 0;", "  for (const item of items) {"]);
    assert.equal(top.post_context[0], "    total += item.price * item.qty;");
    assert.equal(top.function, "totalOf", "the caller's original name for the call names the frame");
    assert.equal(top.data.sourcemap, "~/static/app.js.map");
    assert.equal(top.data.resolved_with, "release");
    const caller = frames[frames.length - 2]!;
    assert.equal(caller.filename, "/src/checkout.ts");
    assert.equal(caller.lineno, 4);
    assert.equal(caller.context_line, "  const total = totalOf(items);");
    assert.deepEqual(event.exception.values[0].raw_stacktrace.frames, sent, "the frames as sent stay in raw_stacktrace");
    assert.deepEqual(event.errors, [], "no processing note when every frame mapped");
  });

  test("the map is found from the minified file's sourceMappingURL when the map was uploaded under another name", async () => {
    const minified = readFileSync(a.js, "utf8").replace("sourceMappingURL=app.js.map", "sourceMappingURL=maps/app.1234.map");
    writeFileSync(path.join(dir, "renamed.js"), minified);
    const byUrl = new Map([
      ["~/static/app.js", { path: path.join(dir, "renamed.js"), release: "shop@2" }],
      ["~/static/maps/app.1234.map", { path: a.map, release: "shop@2" }],
    ]);
    const event = normalized(jsEvent(crashFrames(a, `${URL_A}?v=9`), { release: "shop@2" }));
    await new Symbolicator({ artifacts: dirArtifacts({ byUrl }).artifacts, fetcher: null }).symbolicate(event, project);
    assert.equal(framesOf(event).at(-1)!.filename, "/src/cart.ts");
  });

  test("a dist that does not match finds nothing and says so", async () => {
    const byUrl = new Map([...releaseFiles(a, "shop@1")].map(([k, v]) => [k, { ...v, dist: "7" }]));
    const event = normalized(jsEvent(crashFrames(a, URL_A), { release: "shop@1", dist: "8" }));
    const sent = structuredClone(framesOf(event));
    await new Symbolicator({ artifacts: dirArtifacts({ byUrl }).artifacts, fetcher: null }).symbolicate(event, project);
    assert.deepEqual(framesOf(event), sent);
    assert.deepEqual(event.errors, [{ type: "js_no_source", url: URL_A }]);
  });
});

describe("symbolication by debug id", () => {
  test("a debug id in debug_meta finds the map whatever the release; in_app comes from the original path", async () => {
    const debugId = "c941c6a4-3f21-4b2b-9b5c-7f3a0e4d1b22";
    const byDebugId = new Map([[`${debugId}|source_map`, { path: b.map, type: "source_map" as const }]]);
    const event = normalized(
      jsEvent(crashFrames(b, URL_A), { debug_meta: { images: [{ type: "sourcemap", code_file: URL_A, debug_id: debugId.toUpperCase() }] } }),
    );
    await new Symbolicator({ artifacts: dirArtifacts({ byDebugId }).artifacts, fetcher: null }).symbolicate(event, project);
    const top = framesOf(event).at(-1)!;
    assert.equal(top.filename, "/src/cart.ts");
    assert.equal(top.data.resolved_with, "debug-id");
    assert.equal(top.in_app, true);
  });

  test("the debug id the real sentry-cli injects (sourcemaps inject) links the running bundle to its map", async () => {
    const injected = await buildBundle(path.join(dir, "injected"), "a");
    const cli = spawnSync(path.resolve("node_modules/.bin/sentry-cli"), ["sourcemaps", "inject", path.dirname(injected.js)], { encoding: "utf8" });
    assert.equal(cli.status, 0, cli.stderr);
    const code = readFileSync(injected.js, "utf8");
    const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(code)?.[1];
    assert.ok(debugId, "sentry-cli wrote a debug id into the bundle");
    assert.equal(JSON.parse(readFileSync(injected.map, "utf8")).debug_id, debugId);
    const byDebugId = new Map([[`${debugId}|source_map`, { path: injected.map, type: "source_map" as const }]]);
    const event = normalized(
      jsEvent(crashFrames({ ...injected, code }, URL_A), { debug_meta: { images: [{ type: "sourcemap", code_file: URL_A, debug_id: debugId }] } }),
    );
    await new Symbolicator({ artifacts: dirArtifacts({ byDebugId }).artifacts, fetcher: null }).symbolicate(event, project);
    const top = framesOf(event).at(-1)!;
    assert.equal(top.filename, "/src/cart.ts");
    assert.equal(top.context_line, '    if (item.qty < 0) throw new RangeError("negative quantity for " + item.price);');
  });

  test("sources under node_modules are not in_app (Sentry's is_in_app)", async () => {
    const map = JSON.parse(readFileSync(a.map, "utf8"));
    map.sources = map.sources.map((s: string) => s.replace("../src/cart.ts", "../node_modules/shop-cart/cart.ts"));
    writeFileSync(path.join(dir, "vendored.map"), JSON.stringify(map));
    const byDebugId = new Map([["d1|source_map", { path: path.join(dir, "vendored.map") }]]);
    const event = normalized(jsEvent(crashFrames(a, URL_A), { debug_meta: { images: [{ type: "sourcemap", code_file: URL_A, debug_id: "d1" }] } }));
    await new Symbolicator({ artifacts: dirArtifacts({ byDebugId }).artifacts, fetcher: null }).symbolicate(event, project);
    const top = framesOf(event).at(-1)!;
    assert.equal(top.abs_path, "https://shop.example.com/node_modules/shop-cart/cart.ts");
    assert.equal(top.in_app, false);
  });
});

describe("missing, broken and mismatched maps leave the frames as sent, with a note", () => {
  const withMap = (mapPath: string) => dirArtifacts({ byUrl: new Map([["~/static/app.js.map", { path: mapPath, release: "r" }]]) }).artifacts;

  test("no upload at all: js_no_source", async () => {
    const event = normalized(jsEvent(crashFrames(a, URL_A), { release: "r" }));
    const sent = structuredClone(framesOf(event));
    await new Symbolicator({ artifacts: dirArtifacts({}).artifacts, fetcher: null }).symbolicate(event, project);
    assert.deepEqual(framesOf(event), sent);
    assert.equal(event.exception.values[0].raw_stacktrace, undefined);
    assert.deepEqual(event.errors, [{ type: "js_no_source", url: URL_A }]);
  });

  test("a map that is not JSON: js_invalid_source", async () => {
    writeFileSync(path.join(dir, "broken.map"), '{"version":3,"mappings":');
    const event = normalized(jsEvent(crashFrames(a, URL_A), { release: "r" }));
    const sent = structuredClone(framesOf(event));
    await new Symbolicator({ artifacts: withMap(path.join(dir, "broken.map")), fetcher: null }).symbolicate(event, project);
    assert.deepEqual(framesOf(event), sent);
    assert.deepEqual(event.errors, [{ type: "js_invalid_source", url: "~/static/app.js.map" }]);
  });

  test("a map with corrupt mappings: js_invalid_source", async () => {
    const map = JSON.parse(readFileSync(a.map, "utf8"));
    map.mappings = "!!!!;;%%";
    writeFileSync(path.join(dir, "corrupt.map"), JSON.stringify(map));
    const event = normalized(jsEvent(crashFrames(a, URL_A), { release: "r" }));
    await new Symbolicator({ artifacts: withMap(path.join(dir, "corrupt.map")), fetcher: null }).symbolicate(event, project);
    assert.equal(event.errors?.[0]?.type, "js_invalid_source");
    assert.equal(framesOf(event).at(-1)!.data, undefined);
  });

  test("the map of another build (mismatched): positions it has no mapping for are noted and left as sent", async () => {
    const event = normalized(jsEvent(crashFrames(b, URL_A), { release: "r" }));
    const { artifacts } = dirArtifacts({ byUrl: new Map([["~/static/app.js.map", { path: a.map, release: "r" }]]) });
    // Build b's frames sit on a line of build a's bundle that may map elsewhere; a frame on a line the map does not
    // cover must be noted, never crash. Move one frame beyond the map's lines.
    framesOf(event)[0]!.lineno = 999;
    await new Symbolicator({ artifacts, fetcher: null }).symbolicate(event, project);
    assert.equal(framesOf(event)[0]!.lineno, 999);
    assert.deepEqual(
      event.errors.filter((e: Json) => e.type === "js_invalid_sourcemap_location"),
      [{ type: "js_invalid_sourcemap_location", source: URL_A, row: 999, column: framesOf(event)[0]!.colno }],
    );
  });

  test("a map without sourcesContent maps the position but has no source lines: js_missing_sources_content", async () => {
    const plain = await buildBundle(path.join(dir, "plain"), "a", { sourcesContent: false });
    const event = normalized(jsEvent(crashFrames(plain, URL_A), { release: "r" }));
    await new Symbolicator({ artifacts: withMap(plain.map), fetcher: null }).symbolicate(event, project);
    const top = framesOf(event).at(-1)!;
    assert.equal(top.filename, "/src/cart.ts");
    assert.equal(top.context_line, undefined);
    assert.ok(event.errors.some((e: Json) => e.type === "js_missing_sources_content" && e.source === "https://shop.example.com/src/cart.ts"));
  });

  test("a frame without a column: js_no_column", async () => {
    const event = normalized(
      jsEvent(
        crashFrames(a, URL_A).map((f) => ({ ...f, colno: undefined })),
        { release: "r" },
      ),
    );
    await new Symbolicator({ artifacts: withMap(a.map), fetcher: null }).symbolicate(event, project);
    assert.deepEqual(event.errors, [{ type: "js_no_column", url: URL_A }]);
  });

  test("frames with plain file paths and no debug id are not looked up (Node.js without uploads)", async () => {
    const { artifacts, reads } = dirArtifacts({});
    const event = normalized({
      ...jsEvent(
        crashFrames(a, URL_A).map((f) => ({ ...f, abs_path: "/srv/app/dist/app.js", filename: "/srv/app/dist/app.js" })),
        { release: "r" },
      ),
      platform: "node",
    });
    await new Symbolicator({ artifacts, fetcher: null }).symbolicate(event, project);
    assert.deepEqual(reads, { debugId: 0, url: 0, release: 0 });
    assert.deepEqual(event.errors ?? [], []);
  });

  test("a release without uploads is asked about once per batch, not once per file URL", async () => {
    const { artifacts, reads } = dirArtifacts({ byUrl: releaseFiles(a, "shop@1") });
    const symbolicator = new Symbolicator({ artifacts, fetcher: null });
    symbolicator.startBatch();
    for (let i = 0; i < 5; i++) {
      const frames = crashFrames(a, URL_A).map((f) => ({ ...f, abs_path: `https://shop.example/static/chunk-${i}.js` }));
      const event = normalized(jsEvent(frames, { release: "shop@2" }));
      await symbolicator.symbolicate(event, project);
      assert.deepEqual(
        (event.errors as { type: string; url: string }[]).map((e) => [e.type, e.url]),
        [["js_no_source", `https://shop.example/static/chunk-${i}.js`]],
        "the note is the same as when each URL was looked up",
      );
    }
    assert.deepEqual(reads, { debugId: 0, url: 0, release: 1 });
    // The release with uploads is still looked up by URL, and mapped.
    const event = normalized(jsEvent(crashFrames(a, URL_A), { release: "shop@1" }));
    await symbolicator.symbolicate(event, project);
    assert.equal(framesOf(event).at(-1)!.filename, "/src/cart.ts");
    assert.ok(reads.url > 0);
  });
});

describe("the parsed-map cache", () => {
  test("a burst of events from one bundle reads and parses its map once", async () => {
    const { artifacts, reads } = dirArtifacts({ byUrl: releaseFiles(a, "shop@1") });
    const symbolicator = new Symbolicator({ artifacts, fetcher: null });
    let afterFirst = 0;
    for (let i = 0; i < 20; i++) {
      symbolicator.startBatch();
      const event = normalized(jsEvent(crashFrames(a, URL_A), { release: "shop@1" }));
      await symbolicator.symbolicate(event, project);
      assert.equal(framesOf(event).at(-1)!.filename, "/src/cart.ts");
      if (i === 0) afterFirst = reads.url;
    }
    assert.ok(afterFirst > 0);
    assert.equal(reads.url, afterFirst, "the events after the first read no uploads");
    assert.equal(symbolicator.cache.size, 1);
  });

  test("the cache is bounded by bytes and drops the least recently used map first", async () => {
    const room = 100 * SYMBOLICATION_LIMITS.parsedBytesFactor * 2.5; // two maps of 100 bytes, not three
    const cache = new SourceMapCache(room);
    const map = (bytes: number) => ({ url: "u", bytes, map: null as never, lines: new Map() });
    cache.set("one", map(100), null);
    cache.set("two", map(100), null);
    cache.get("one");
    cache.set("three", map(100), null);
    assert.deepEqual([cache.get("one") !== null, cache.get("two") !== null, cache.get("three") !== null], [true, false, true]);
    assert.ok(cache.bytes <= room);
    cache.set("huge", map(10_000), null);
    assert.equal(cache.get("huge"), null, "a map larger than the whole cache is not kept");
  });
});

describe("grouping of symbolicated events", () => {
  test("Sentry's JavaScript rules: two builds of the same code with different minified output group together", async () => {
    const byUrlA = releaseFiles(a, "shop@1");
    const byUrlB = releaseFiles(b, "shop@2");
    const eventA = normalized(jsEvent(crashFrames(a, URL_A), { release: "shop@1" }));
    const eventB = normalized(jsEvent(crashFrames(b, URL_A), { release: "shop@2" }));
    assert.notDeepEqual(
      framesOf(eventA).map((f) => [f.lineno, f.colno, f.function]),
      framesOf(eventB).map((f) => [f.lineno, f.colno, f.function]),
      "the builds differ as sent",
    );
    const rawA = groupEvent(structuredClone(eventA)).hashes;
    const rawB = groupEvent(structuredClone(eventB)).hashes;
    await new Symbolicator({ artifacts: dirArtifacts({ byUrl: byUrlA }).artifacts, fetcher: null }).symbolicate(eventA, project);
    await new Symbolicator({ artifacts: dirArtifacts({ byUrl: byUrlB }).artifacts, fetcher: null }).symbolicate(eventB, project);
    const groupedA = groupEvent(eventA);
    const groupedB = groupEvent(eventB);
    assert.deepEqual(groupedA.hashes, groupedB.hashes);
    assert.notDeepEqual(groupedA.hashes, rawA, "the mapped frames, not the minified ones, are what groups");
    assert.notDeepEqual(groupedB.hashes, rawB, "so for the other build too");
    const frame = (groupedA.variants.app ?? groupedA.variants.default)!.component;
    const text = JSON.stringify(frame);
    assert.match(text, /ignored because sourcemap used and context line available/);
  });
});
