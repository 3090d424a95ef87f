// sentry-protocol.md §6 "sourcemaps upload": artifact bundles as sentry-cli builds them ("SYSB" + version + ZIP with
// manifest.json), read into their files, and every malformed bundle refused with a BundleError that says why.
import assert from "node:assert/strict";
import { test } from "node:test";
import { strToU8, zipSync } from "fflate";
import { BundleError, normalizeDebugId, readArtifactBundle } from "../../src/protocol/artifact-bundle";

const limits = { maxFileSize: 1024, maxUnzippedSize: 4096, maxFiles: 10 };
const DEBUG_ID = "a1b2c3d4-e5f6-4789-8abc-def012345678";

function sysb(zip: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + zip.length);
  out.set(strToU8("SYSB"), 0);
  new DataView(out.buffer).setUint32(4, 2, true);
  out.set(zip, 8);
  return out;
}

const manifest = (files: Record<string, unknown>, extra: Record<string, unknown> = {}) => strToU8(JSON.stringify({ files, org: "acme", ...extra }));
const good = () => ({
  "manifest.json": manifest(
    {
      "files/_/_/app.min.js": { type: "minified_source", url: "~/app.min.js", headers: { "Debug-Id": DEBUG_ID.toUpperCase(), Sourcemap: "app.min.js.map" } },
      "files/_/_/app.min.js.map": { type: "source_map", url: "~/app.min.js.map", headers: { "debug-id": DEBUG_ID } },
    },
    { debug_id: "0F0F0F0F0F0F4F0F8F0F0F0F0F0F0F0F", release: "web@1.0", dist: "7" },
  ),
  "files/_/_/app.min.js": strToU8("console.log(1)"),
  "files/_/_/app.min.js.map": strToU8('{"version":3}'),
});

test("sentry-protocol §6: a bundle with the SYSB header is read into its manifest's files, header names lower-cased", () => {
  const b = readArtifactBundle(sysb(zipSync(good())), limits);
  assert.equal(b.bundleId, "0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f");
  assert.deepEqual([b.release, b.dist], ["web@1.0", "7"]);
  assert.deepEqual(
    b.files.map((f) => [f.path, f.url, f.type, f.debugId, f.headers, Buffer.from(f.bytes).toString()]),
    [
      [
        "files/_/_/app.min.js",
        "~/app.min.js",
        "minified_source",
        DEBUG_ID,
        { "debug-id": DEBUG_ID.toUpperCase(), sourcemap: "app.min.js.map" },
        "console.log(1)",
      ],
      ["files/_/_/app.min.js.map", "~/app.min.js.map", "source_map", DEBUG_ID, { "debug-id": DEBUG_ID }, '{"version":3}'],
    ],
  );
});

test("sentry-protocol §6: a bundle without the header (a plain ZIP) is read too; an unknown type is kept as none", () => {
  const files = good();
  files["manifest.json"] = manifest({ "files/_/_/app.min.js": { type: "something_new", url: "~/app.min.js" } });
  const b = readArtifactBundle(zipSync(files), limits);
  assert.deepEqual(
    b.files.map((f) => [f.url, f.type, f.debugId]),
    [["~/app.min.js", null, null]],
  );
  assert.deepEqual([b.bundleId, b.release, b.dist], [null, null, null]);
});

const refused = (data: Uint8Array, message: RegExp) =>
  assert.throws(
    () => readArtifactBundle(data, limits),
    (err: unknown) => err instanceof BundleError && message.test(err.message),
  );

test("sentry-protocol §6: malformed bundles are refused with a reason", () => {
  refused(strToU8("SYSB\u0002\u0000\u0000\u0000not a zip at all"), /not a valid ZIP/);
  refused(new Uint8Array(0), /not a valid ZIP/);
  refused(sysb(zipSync({ "files/a.js": strToU8("x") })), /no manifest\.json/);
  refused(sysb(zipSync({ "manifest.json": strToU8("{nope") })), /not valid JSON/);
  refused(sysb(zipSync({ "manifest.json": strToU8("[1]") })), /not an object/);
  refused(sysb(zipSync({ "manifest.json": strToU8('{"files":[]}') })), /no "files" object/);
  refused(sysb(zipSync({ "manifest.json": manifest({ "files/a.js": { type: "source" } }), "files/a.js": strToU8("x") })), /has no url/);
  refused(sysb(zipSync({ "manifest.json": manifest({ "files/a.js": { url: "~/a.js" } }) })), /does not hold/);
  refused(sysb(zipSync({ "manifest.json": manifest({}), "big.js": new Uint8Array(2048) })), /larger than 1024 bytes/);
  const many: Record<string, Uint8Array> = { "manifest.json": manifest({}) };
  for (let i = 0; i < 12; i++) many[`f${i}.js`] = strToU8("x");
  refused(sysb(zipSync(many)), /more than 10 files/);
  const wide: Record<string, Uint8Array> = { "manifest.json": manifest({}) };
  for (let i = 0; i < 5; i++) wide[`f${i}.js`] = new Uint8Array(1000);
  refused(sysb(zipSync(wide)), /larger than 4096 bytes together/);
});

test("sentry-protocol §6: a truncated bundle is refused, not a crash", () => {
  const whole = sysb(zipSync(good()));
  for (const cut of [10, 100, whole.length - 30, whole.length - 1]) {
    assert.throws(() => readArtifactBundle(whole.subarray(0, cut), limits), BundleError, `cut at ${cut}`);
  }
});

test("debug ids: dashed or not, any case, with an appendix, become lower-case dashed UUIDs; anything else none", () => {
  assert.equal(normalizeDebugId(DEBUG_ID.toUpperCase()), DEBUG_ID);
  assert.equal(normalizeDebugId(DEBUG_ID.replace(/-/g, "")), DEBUG_ID);
  assert.equal(normalizeDebugId(`${DEBUG_ID}-1a`), DEBUG_ID);
  assert.equal(normalizeDebugId("not-a-uuid"), null);
  assert.equal(normalizeDebugId(42), null);
});
