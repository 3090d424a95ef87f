// Faultline's own browser source maps, on SQLite and on a real PostgreSQL: a build's chunk and map, injected by the
// real sentry-cli and moved out of the served folder by the build plugin (scripts/own-sourcemaps-plugin.mjs), are
// read at start and stored as one artifact bundle of the internal project, found by debug id as the digest looks
// them up; starting the same build again stores nothing new, a new build adds its bundle.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { after, describe, test } from "node:test";
import { build } from "esbuild";
import { findInternalProject } from "../../src/core/internal-project";
import { storeOwnSourceMaps } from "../../src/core/own-sourcemaps";
import { OWN_SOURCEMAPS_DIR, readOwnBuildFiles } from "../../src/server/own-sourcemaps";
import type { OpenDbOptions } from "../../src/storage/db";
import { injectAndHideSourceMaps, OWN_SOURCEMAPS_DIR as PLUGIN_DIR } from "../../scripts/own-sourcemaps-plugin.mjs";
import { testCore } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";

const work = mkdtempSync(path.join(tmpdir(), "faultline-own-maps-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** A build's dist dir with one minified chunk and its map, as webpack leaves them, then the plugin's step. */
async function builtDist(name: string, message: string): Promise<string> {
  const dist = path.join(work, name);
  mkdirSync(path.join(dist, "static", "chunks"), { recursive: true });
  const src = path.join(work, `${name}-trigger.ts`);
  writeFileSync(src, `export function explode(): never {\n  throw new Error(${JSON.stringify(message)});\n}\n(globalThis as any).explode = explode;\n`);
  await build({
    entryPoints: [src],
    outfile: path.join(dist, "static", "chunks", "page-1a2b.js"),
    bundle: true,
    minify: true,
    sourcemap: true,
    logLevel: "silent",
  });
  assert.ok(readFileSync(path.join(dist, "static", "chunks", "page-1a2b.js.map")).byteLength > 0);
  mkdirSync(path.join(dist, "static", "css"));
  writeFileSync(path.join(dist, "static", "css", "9f8e.css"), "main{color:red}\n/*# sourceMappingURL=9f8e.css.map*/");
  writeFileSync(path.join(dist, "static", "css", "9f8e.css.map"), '{"version":3,"sources":["app.css"],"names":[],"mappings":"AAAA"}');
  await injectAndHideSourceMaps(dist, ["static/chunks/page-1a2b.js.map", "static/css/9f8e.css.map"]);
  return dist;
}

const bundles = (t: Awaited<ReturnType<typeof testCore>>, organizationId: number) =>
  t.db.kysely.selectFrom("artifact_bundles").select(["id", "checksum"]).where("organization_id", "=", organizationId).execute();

function suite(name: string, options: () => Promise<OpenDbOptions>, cleanup: () => Promise<void> = async () => undefined) {
  describe(`own source maps: ${name}`, () => {
    after(cleanup);

    test("issue 7: the build's maps leave the served folder, keyed to their chunk by the debug id sentry-cli injected", async () => {
      assert.equal(PLUGIN_DIR, OWN_SOURCEMAPS_DIR, "the build and the server name the same private folder");
      const dist = await builtDist(`serve-${name}`, "boom");
      const chunk = readFileSync(path.join(dist, "static", "chunks", "page-1a2b.js"), "utf8");
      assert.equal(existsSync(path.join(dist, "static", "chunks", "page-1a2b.js.map")), false, "no map under static/");
      assert.ok(existsSync(path.join(dist, OWN_SOURCEMAPS_DIR, "chunks", "page-1a2b.js.map")));
      assert.doesNotMatch(chunk, /sourceMappingURL/);
      assert.match(chunk, /_sentryDebugIds/);
      assert.equal(readFileSync(path.join(dist, "static", "css", "9f8e.css"), "utf8"), "main{color:red}", "a stylesheet's map moves too");
      assert.ok(existsSync(path.join(dist, OWN_SOURCEMAPS_DIR, "css", "9f8e.css.map")));
      const debugId = /\/\/# debugId=([0-9a-f-]{36})/.exec(chunk)?.[1];
      assert.ok(debugId, chunk.slice(-200));
      const map = JSON.parse(readFileSync(path.join(dist, OWN_SOURCEMAPS_DIR, "chunks", "page-1a2b.js.map"), "utf8"));
      assert.equal(map.debug_id ?? map.debugId, debugId);

      const files = await readOwnBuildFiles(dist, "/monitor");
      assert.deepEqual(
        files.map((f) => [f.path, f.url, f.type, f.debugId]),
        [
          ["_next/static/chunks/page-1a2b.js", "~/monitor/_next/static/chunks/page-1a2b.js", "minified_source", debugId],
          ["_next/static/chunks/page-1a2b.js.map", "~/monitor/_next/static/chunks/page-1a2b.js.map", "source_map", debugId],
        ],
      );
      assert.deepEqual(await readOwnBuildFiles(path.join(work, "no-such-build"), ""), [], "a build without maps has nothing to store");
    });

    test("issue 7: stored once per build for the internal project; a restart links the same bundle, a new build adds one", async () => {
      const t = await testCore(await options());
      try {
        const internal = (await findInternalProject(t.store))!;
        assert.ok(internal, "migration 0014 made the internal project");
        const dist = await builtDist(`store-${name}`, "first build");
        const files = await readOwnBuildFiles(dist, "");
        const debugId = files[0]!.debugId;

        const first = await storeOwnSourceMaps(t.store, files);
        assert.equal(first.state, "stored");
        const map = await t.store.fileByDebugId(internal.project.id, debugId, "source_map");
        assert.equal(map?.url, "~/_next/static/chunks/page-1a2b.js.map");
        assert.match(Buffer.from(map!.bytes).toString("utf8"), /first build/, "the map's sourcesContent, as built");
        assert.equal((await t.store.fileByDebugId(internal.project.id, debugId, "minified_source"))?.url, "~/_next/static/chunks/page-1a2b.js");

        const again = await storeOwnSourceMaps(t.store, await readOwnBuildFiles(dist, ""));
        assert.deepEqual(again, { state: "known", bundleRowId: first.state === "stored" ? first.bundleRowId : -1, files: 2 });
        assert.equal((await bundles(t, internal.organization.id)).length, 1, "a restart of the same build stores nothing new");

        const next = await storeOwnSourceMaps(t.store, await readOwnBuildFiles(await builtDist(`store2-${name}`, "second build"), ""));
        assert.equal(next.state, "stored");
        assert.equal((await bundles(t, internal.organization.id)).length, 2, "a new build adds its bundle");
        assert.deepEqual(await storeOwnSourceMaps(t.store, []), { state: "skipped", reason: "the build has no browser source maps" });
      } finally {
        await t.close();
      }
    });
  });
}

suite("SQLite", async () => ({ dialect: "sqlite", file: ":memory:" }));
let drop: (() => Promise<void>) | undefined;
suite(
  "PostgreSQL",
  async () => {
    const fresh = await freshPgDatabase(`own_maps_${randomBytes(4).toString("hex")}`);
    drop = fresh.drop;
    return { dialect: "postgres", url: fresh.url };
  },
  async () => drop?.(),
);
