// The state several nodes share beyond events and issues (storage/cluster-ports.ts, migration 0026), run by
// conformance.ts on each dialect: quota counts that add up across nodes, and job claims held by one node at a time.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

export function clusterConformance(get: () => Fixture) {
  test("cluster: quota counts add every node's units per window, concurrently, and ended windows are pruned", async () => {
    const { t } = get();
    const name = uniq("key:1:error");
    const start = 1_800_000_000_000;
    const adds = await Promise.all(
      Array.from({ length: 8 }, (_, i) => t.store.addQuotaCounts([{ name, windowStart: start, expiresAt: start + 60_000, delta: i + 1 }])),
    );
    assert.equal(Math.max(...adds.map((a) => a[0]!.count)), 36, "1 + 2 + … + 8, none lost");
    const [read] = await t.store.addQuotaCounts([{ name, windowStart: start, expiresAt: start + 60_000, delta: 0 }]);
    assert.deepEqual(read, { name, windowStart: start, count: 36 });
    const [next] = await t.store.addQuotaCounts([{ name, windowStart: start + 60_000, expiresAt: start + 120_000, delta: 2 }]);
    assert.equal(next!.count, 2, "each window counts apart");
    assert.ok((await t.store.pruneQuotaCounts(start + 60_001, 100)) >= 1);
    const [after] = await t.store.addQuotaCounts([{ name, windowStart: start + 60_000, expiresAt: start + 120_000, delta: 0 }]);
    assert.equal(after!.count, 2, "the open window stays");
    const [gone] = await t.store.addQuotaCounts([{ name, windowStart: start, expiresAt: start + 60_000, delta: 0 }]);
    assert.equal(gone!.count, 0, "the ended window was pruned");
  });

  test("cluster: the same artifact bundle stored by several nodes at once (the build's own source maps at start) is one bundle, linked", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("cl"), name: "CL", ownerUserId: alice.id });
    const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    const checksum = "c".repeat(40);
    const now = new Date().toISOString();
    const ids = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.store.createBundle({
          organizationId: org.id,
          checksum,
          bundleId: null,
          size: 3,
          files: [
            {
              path: "_next/static/a.js",
              url: "~/_next/static/a.js",
              type: "minified_source",
              debugId: null,
              headers: {},
              size: 3,
              sha1: "a".repeat(40),
              data: Buffer.from("abc"),
            },
          ],
          links: [{ projectId: p.id, release: "", dist: "" }],
          now,
        }),
      ),
    );
    assert.equal(new Set(ids).size, 1, "every node gets the one bundle");
    const bundles = await t.db.kysely.selectFrom("artifact_bundles").select("id").where("organization_id", "=", org.id).execute();
    assert.equal(bundles.length, 1);
    const files = await t.db.kysely.selectFrom("artifact_files").select("id").where("bundle_id", "=", ids[0]!).execute();
    assert.equal(files.length, 1);
  });

  test("cluster: a job is claimed by one holder at a time, until its claim ends", async () => {
    const { t } = get();
    const job = uniq("retention");
    const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, s)).toISOString();
    const claims = await Promise.all(["a", "b", "c", "d"].map((holder) => t.store.claimJob(job, holder, at(0), at(30))));
    assert.equal(claims.filter(Boolean).length, 1, "one of four nodes at once");
    const holder = ["a", "b", "c", "d"][claims.indexOf(true)]!;
    const other = holder === "a" ? "b" : "a";
    assert.equal(await t.store.claimJob(job, other, at(10), at(40)), false, "held until it ends");
    assert.equal(await t.store.claimJob(job, holder, at(10), at(40)), true, "the holder extends its own claim");
    assert.equal(await t.store.claimJob(job, other, at(40), at(70)), true, "taken over once it ended");
  });
}
