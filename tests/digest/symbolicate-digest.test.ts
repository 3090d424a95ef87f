// Symbolication in the digest loop: events from the spool are mapped before grouping and stored with their raw
// frames, on a real database (SQLite and PostgreSQL) with a real spool. The uploaded files come from `dirArtifacts` (files on disk
// behind an ArtifactReads) until the digest's store reads them from storage.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { eventEntries } from "../../src/core/event-entries";
import { runDigestLoop } from "../../src/digest/loop";
import { Symbolicator } from "../../src/digest/symbolicate";
import { SpoolReader, SpoolWriter } from "../../src/ingest/spool";
import type { OpenDbOptions } from "../../src/storage/db";
import { testCore, uniq } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";
import { buildBundle, crashFrames, dirArtifacts, jsEvent } from "../helpers/js-bundles";
import type { TestJson } from "../helpers/json";

const dir = mkdtempSync(path.join(tmpdir(), "faultline-symbolicate-digest-"));
after(() => rmSync(dir, { recursive: true, force: true }));

type Json = Record<string, TestJson>;
const URL_APP = "https://shop.example.com/static/app.js";

const dialects: Record<string, () => Promise<{ options: OpenDbOptions; drop: () => Promise<void> }>> = {
  sqlite: async () => ({ options: { dialect: "sqlite", file: ":memory:" }, drop: async () => {} }),
  postgres: async () => {
    const db = await freshPgDatabase(`symbolicate_${randomBytes(4).toString("hex")}`);
    return { options: { dialect: "postgres", url: db.url }, drop: db.drop };
  },
};

for (const [dialect, open] of Object.entries(dialects))
  test(`${dialect}: the digest maps JavaScript frames before grouping: two deploys of the same code are one issue, raw frames kept, a missing map noted`, async () => {
    const a = await buildBundle(path.join(dir, dialect, "src"), "a");
    const b = await buildBundle(path.join(dir, dialect, "src"), "b");
    const database = await open();
    const t = await testCore(database.options);
    const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" });
    const org = await t.store.createOrganization({ slug: uniq("org"), name: "O", ownerUserId: owner.id });
    const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: "javascript" });
    const { artifacts } = dirArtifacts({
      byUrl: new Map([
        ["~/static/app.js", { path: a.js, release: "shop@1" }],
        ["~/static/app.js.map", { path: a.map, release: "shop@1" }],
      ]),
      byDebugId: new Map([["7d3c1a9e-0b52-4c1e-8f6a-2b9d4e5f6a7b|source_map", { path: b.map }]]),
    });
    const events = [
      jsEvent(crashFrames(a, URL_APP), { release: "shop@1" }),
      jsEvent(crashFrames(b, URL_APP), {
        release: "shop@2",
        debug_meta: { images: [{ type: "sourcemap", code_file: URL_APP, debug_id: "7d3c1a9e-0b52-4c1e-8f6a-2b9d4e5f6a7b" }] },
      }),
      jsEvent(crashFrames(b, URL_APP), { release: "shop@3" }),
    ];
    const writer = SpoolWriter.open(path.join(dir, dialect, "spool"), "normal");
    const reader = SpoolReader.open(path.join(dir, dialect, "spool"));
    try {
      await writer.append(
        events.map((e) => ({
          projectId: project.id,
          keyId: 1,
          receivedAt: Date.now(),
          itemType: "event",
          eventId: e.event_id as string,
          headers: '{"type":"event"}',
          meta: "{}",
          payload: Buffer.from(JSON.stringify(e)),
        })),
      );
      const last = reader.read(0, 10).pop()!.id;
      let position = 0;
      const lines: string[] = [];
      await runDigestLoop({
        spool: reader,
        store: t.store,
        onPosition: (p) => (position = p),
        log: (l) => lines.push(l),
        stopped: () => position >= last,
        symbolicator: new Symbolicator({ artifacts, fetcher: null }),
      });
      assert.deepEqual(lines, []);
      const [first, second, unmapped] = await Promise.all(events.map((e) => t.store.getEvent(project.id, e.event_id as string)));
      assert.ok(first && second && unmapped);
      const data = (e: { data: string }) => JSON.parse(e.data) as Json;
      const top = (e: Json) => e.exception.values[0].stacktrace.frames.at(-1);
      assert.equal(top(data(first)).filename, "/src/cart.ts");
      assert.equal(top(data(second)).filename, "/src/cart.ts");
      assert.equal(top(data(second)).data.resolved_with, "debug-id");
      assert.equal(first.issueId, second.issueId, "two deploys of the same code group together");
      assert.notEqual(unmapped.issueId, first.issueId, "the event whose map is missing groups by its minified frames");
      assert.match(first.culprit, /cart\.ts/);
      // The API's entries carry both the mapped and the raw stack trace.
      const [exception] = eventEntries(data(first)).filter((e) => e.type === "exception") as { data: { values: Json[] } }[];
      assert.equal(exception!.data.values[0]!.stacktrace.frames.at(-1).filename, "/src/cart.ts");
      assert.equal(exception!.data.values[0]!.rawStacktrace.frames.at(-1).absPath, URL_APP);
      assert.deepEqual(data(unmapped).errors, [{ type: "js_no_source", url: URL_APP }]);
      assert.equal(top(data(unmapped)).abs_path, URL_APP);
    } finally {
      reader.close();
      writer.close();
      await t.close();
      await database.drop();
    }
  });
