// Uploaded source files, run by conformance.ts on each dialect: chunks kept per organization until deleted, a bundle
// stored once per organization and SHA-1 (a second create links the first), its files found by debug id and by
// release URL through the digest's read port (artifact-ports.ts), listed per release, and pruned by retention.
import assert from "node:assert/strict";
import { test } from "node:test";
import { deflateRawSync } from "node:zlib";
import { uploadReleaseFile } from "../../src/core/release-files";
import { createRelease } from "../../src/core/releases";
import type { User } from "../../src/storage/ports";
import type { NewArtifactFile } from "../../src/storage/upload-ports";
import { outcome, type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

const bytes = (s: string) => new Uint8Array(Buffer.from(s));
const file = (
  path: string,
  url: string,
  type: NewArtifactFile["type"],
  debugId: string | null,
  content: string,
  headers: Record<string, string> = {},
): NewArtifactFile => ({
  path,
  url,
  type,
  debugId,
  headers,
  size: content.length,
  sha1: `sha-${path}`,
  data: deflateRawSync(Buffer.from(content)),
});

export function artifactConformance(get: () => Fixture) {
  async function org() {
    const { t, alice } = get();
    const o = await t.store.createOrganization({ slug: uniq("art"), name: "Art", ownerUserId: alice.id });
    const project = () => t.store.createProject({ organizationId: o.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    return { o, a: await project(), b: await project() };
  }

  test("artifacts: chunks are kept per organization until deleted, a repeated chunk once", async () => {
    const { t } = get();
    const { o } = await org();
    const { o: other } = await org();
    const now = "2026-11-23T10:00:00.000Z";
    await t.store.putChunks(
      o.id,
      [
        { checksum: "a".repeat(40), data: bytes("hello") },
        { checksum: "b".repeat(40), data: bytes("world!") },
      ],
      now,
    );
    await t.store.putChunks(o.id, [{ checksum: "a".repeat(40), data: bytes("hello") }], now);
    assert.deepEqual([...(await t.store.presentChunks(o.id, ["a".repeat(40), "c".repeat(40)]))], ["a".repeat(40)]);
    assert.equal((await t.store.presentChunks(other.id, ["a".repeat(40)])).size, 0, "chunks belong to their organization");
    assert.equal(await t.store.pendingChunkBytes(o.id), 11);
    const read = await t.store.readChunks(o.id, ["b".repeat(40), "c".repeat(40)]);
    assert.equal(Buffer.from(read.get("b".repeat(40))!).toString(), "world!");
    assert.equal(read.has("c".repeat(40)), false);
    await t.store.deleteChunks(o.id, ["a".repeat(40), "b".repeat(40)]);
    assert.equal(await t.store.pendingChunkBytes(o.id), 0);
  });

  test("artifacts: a bundle's files by debug id (newest bundle first) and by release, dist and URL; stored once per checksum", async () => {
    const { t } = get();
    const { o, a, b } = await org();
    const debugId = "5D2A0B5E-1C3F-4B8A-9E7D-0123456789AB";
    const now = "2026-11-23T10:00:00.000Z";
    const first = await t.store.createBundle({
      organizationId: o.id,
      checksum: "1".repeat(40),
      bundleId: null,
      size: 100,
      now,
      files: [
        file("files/_/_/app.min.js", "~/app.min.js", "minified_source", debugId, "old min", { "debug-id": debugId.toLowerCase(), sourcemap: "app.min.js.map" }),
        file("files/_/_/app.min.js.map", "~/app.min.js.map", "source_map", debugId, "old map"),
      ],
      links: [{ projectId: a.id, release: "", dist: "" }],
    });
    const second = await t.store.createBundle({
      organizationId: o.id,
      checksum: "2".repeat(40),
      bundleId: "0f0f0f0f-0000-4000-8000-000000000000",
      size: 100,
      now,
      files: [
        file("files/_/_/app.min.js", "~/app.min.js", "minified_source", debugId, "new min", { sourcemap: "app.min.js.map" }),
        file("files/_/_/app.min.js.map", "~/app.min.js.map", "source_map", debugId, "new map"),
      ],
      links: [{ projectId: a.id, release: "web@1.0", dist: "7" }],
    });
    assert.notEqual(first, second);
    const min = await t.store.fileByDebugId(a.id, debugId.toLowerCase(), "minified_source");
    assert.deepEqual(min && { ...min, bytes: Buffer.from(min.bytes).toString() }, {
      url: "~/app.min.js",
      type: "minified_source",
      headers: { sourcemap: "app.min.js.map" },
      bytes: "new min",
    });
    assert.equal(Buffer.from((await t.store.fileByDebugId(a.id, debugId, "source_map"))!.bytes).toString(), "new map", "a debug id is found whatever its case");
    assert.equal(await t.store.fileByDebugId(b.id, debugId, "source_map"), null, "only in the projects the bundle is linked to");

    assert.equal(Buffer.from((await t.store.fileByUrl(a.id, "web@1.0", "7", "~/app.min.js.map"))!.bytes).toString(), "new map");
    assert.equal(await t.store.fileByUrl(a.id, "web@1.0", null, "~/app.min.js.map"), null, "a null dist matches files without one");
    assert.equal(await t.store.fileByUrl(a.id, "web@2.0", "7", "~/app.min.js.map"), null);

    assert.equal(await t.store.bundleByChecksum(o.id, "2".repeat(40)), second);
    const again = await t.store.createBundle({
      organizationId: o.id,
      checksum: "2".repeat(40),
      bundleId: null,
      size: 100,
      now,
      files: [file("x", "~/x.js", "source", null, "x")],
      links: [{ projectId: b.id, release: "web@1.0", dist: "7" }],
    });
    assert.equal(again, second, "the same checksum is stored once, and linked to the new project");
    assert.equal(Buffer.from((await t.store.fileByUrl(b.id, "web@1.0", "7", "~/app.min.js"))!.bytes).toString(), "new min");
    assert.equal(await t.store.fileByUrl(b.id, "web@1.0", "7", "~/x.js"), null, "the second create's files were not stored");
    await t.store.linkBundle(first, [{ projectId: b.id, release: "web@1.0", dist: "" }], now);
    assert.equal(Buffer.from((await t.store.fileByUrl(b.id, "web@1.0", null, "~/app.min.js"))!.bytes).toString(), "old min");
  });

  test("artifacts: release files are listed once per dist, a legacy file exists by URL and is deleted alone", async () => {
    const { t } = get();
    const { o, a, b } = await org();
    const now = "2026-11-23T10:00:00.000Z";
    await t.store.createBundle({
      organizationId: o.id,
      checksum: "3".repeat(40),
      bundleId: null,
      size: 10,
      now,
      files: [file("files/b.js", "~/b.js", "minified_source", null, "bbb")],
      links: [
        { projectId: a.id, release: "r1", dist: "" },
        { projectId: b.id, release: "r1", dist: "" },
      ],
    });
    await t.store.createBundle({
      organizationId: o.id,
      checksum: null,
      bundleId: null,
      size: 2,
      now,
      files: [file("~/a.js", "~/a.js", null, null, "aa", { sourcemap: "a.js.map" })],
      links: [{ projectId: a.id, release: "r1", dist: "d1" }],
    });
    const listed = await t.store.listReleaseFiles([a.id, b.id], "r1", 100);
    assert.deepEqual(
      listed.map((f) => [f.url, f.type, f.size, f.dist, f.checksum]),
      [
        ["~/a.js", null, 2, "d1", null],
        ["~/b.js", "minified_source", 3, null, "3".repeat(40)],
      ],
    );
    assert.deepEqual(listed[0]!.headers, { sourcemap: "a.js.map" });
    assert.equal(await t.store.releaseFileExists({ projectId: a.id, release: "r1", dist: "d1" }, "~/a.js"), true);
    assert.equal(await t.store.releaseFileExists({ projectId: a.id, release: "r1", dist: "" }, "~/a.js"), false);
    assert.equal(await t.store.deleteReleaseFile([a.id], "r1", listed[1]!.fileId), false, "a bundle's file is not deleted one by one");
    assert.equal(await t.store.deleteReleaseFile([b.id], "r1", listed[0]!.fileId), false, "only within the release's projects");
    assert.equal(await t.store.deleteReleaseFile([a.id], "r1", listed[0]!.fileId), true);
    assert.deepEqual(
      (await t.store.listReleaseFiles([a.id], "r1", 100)).map((f) => f.url),
      ["~/b.js"],
    );
    assert.deepEqual(await t.store.listReleaseFiles([], "r1", 100), []);
  });

  test("artifacts: retention deletes bundles last used before the cutoff with their files, and old chunks", async () => {
    const { t } = get();
    const { o, a } = await org();
    const debugId = "11111111-2222-4333-8444-555555555555";
    await t.store.createBundle({
      organizationId: o.id,
      checksum: "4".repeat(40),
      bundleId: null,
      size: 10,
      now: "2000-01-01T00:00:00.000Z",
      files: [file("f", "~/old.js", "minified_source", debugId, "old")],
      links: [{ projectId: a.id, release: "", dist: "" }],
    });
    const kept = await t.store.createBundle({
      organizationId: o.id,
      checksum: "5".repeat(40),
      bundleId: null,
      size: 10,
      now: "2000-01-01T00:00:00.000Z",
      files: [file("f", "~/kept.js", "source_map", debugId, "kept")],
      links: [{ projectId: a.id, release: "", dist: "" }],
    });
    await t.store.linkBundle(kept, [], "2001-06-01T00:00:00.000Z");
    await t.store.putChunks(o.id, [{ checksum: "d".repeat(40), data: bytes("old chunk") }], "2000-01-01T00:00:00.000Z");
    await t.store.putChunks(o.id, [{ checksum: "e".repeat(40), data: bytes("new chunk") }], "2001-06-01T00:00:00.000Z");
    let deleted = 0;
    for (let n = -1; n !== 0; ) deleted += n = await t.store.pruneArtifactsBefore("2001-01-01T00:00:00.000Z", "2001-01-01T00:00:00.000Z", 1);
    assert.ok(deleted >= 2, "the old bundle and the old chunk (and any of other tests this old)");
    assert.equal(await t.store.fileByDebugId(a.id, debugId, "minified_source"), null);
    assert.equal(await t.store.bundleByChecksum(o.id, "4".repeat(40)), null);
    assert.equal(Buffer.from((await t.store.fileByDebugId(a.id, debugId, "source_map"))!.bytes).toString(), "kept");
    assert.deepEqual([...(await t.store.presentChunks(o.id, ["d".repeat(40), "e".repeat(40)]))], ["e".repeat(40)]);
  });

  test("artifacts: a release file's name, dist or header with a control character (NUL: PostgreSQL's text cannot hold it) is a 400", async () => {
    const { t, alice } = get();
    const { o, a } = await org();
    const ctx = { store: t.store, actor: { user: alice }, ip: null };
    await createRelease(ctx, o.slug, null, { version: "ctl@1.0", projects: [a.slug] });
    const upload = (over: { name?: string; dist?: string; headers?: string[] }) =>
      uploadReleaseFile(ctx, o.slug, null, "ctl@1.0", async () => ({
        file: { filename: "app.js", data: bytes("x") },
        name: "~/app.js",
        dist: null,
        headers: [],
        ...over,
      }));
    for (const over of [
      { name: "~/a\u0000.js" },
      { name: "~/a\n.js" },
      { dist: "d\u0000" },
      { headers: ["Sourcemap:a\u0000.map"] },
      { headers: ["X\u0000:1"] },
    ])
      assert.equal(await outcome(() => upload(over)), "bad_request", JSON.stringify(over));
    assert.equal((await upload({ headers: ["Sourcemap: app.js.map"] })).url, "~/app.js");
  });
}
