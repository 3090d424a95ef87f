// Retention inside the digest loop: its steps run between batches and while the spool is empty, and digesting goes on
// unaffected (every item digested, every count kept) while it prunes. A real spool and a real SQLite file.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { runDigestLoop } from "../../src/digest/loop";
import { RetentionJob, retentionSettings } from "../../src/digest/retention";
import { SpoolReader, SpoolWriter } from "../../src/ingest/spool";
import { testCore } from "../helpers/core";

test("the digest loop prunes an issue past its cap between batches while every spooled event is still digested and counted", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "faultline-retention-loop-"));
  const t = await testCore({ dialect: "sqlite", file: path.join(dir, "faultline.sqlite3") });
  const writer = SpoolWriter.open(path.join(dir, "spool"), "normal");
  const reader = SpoolReader.open(path.join(dir, "spool"));
  try {
    const owner = await t.accounts.createUser({ email: "owner@example.com", password: "password123", name: "Owner" });
    const org = await t.store.createOrganization({ slug: "org", name: "Org", ownerUserId: owner.id });
    const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: "web", name: "Web", platform: "javascript" });
    const now = Date.now();
    const ids = Array.from({ length: 7 }, (_, i) => (i + 1).toString(16).padStart(32, "0"));
    const payload = (i: number) =>
      Buffer.from(
        JSON.stringify({ exception: { values: [{ type: "TypeError", value: "x is undefined" }] }, timestamp: now / 1000 - 60 + i, platform: "javascript" }),
      );
    await writer.append(
      ids.map((eventId, i) => ({
        kind: "item" as const,
        projectId: p.id,
        keyId: 1,
        receivedAt: now,
        itemType: "event",
        eventId,
        headers: "{}",
        meta: "{}",
        payload: payload(i),
      })),
    );
    const lines: string[] = [];
    const log = (l: string) => lines.push(l);
    const job = new RetentionJob(t.store, { ...retentionSettings(90), eventsPerIssue: 2, chunkRows: 1 }, log);
    let position = 0;
    const deadline = Date.now() + 10_000;
    await runDigestLoop({
      spool: reader,
      store: t.store,
      onPosition: (p) => (position = p),
      log,
      stopped: () => Date.now() > deadline || lines.some((l) => l.includes("retention removed")),
      retention: job,
    });
    assert.ok(
      lines.some((l) => l.includes("retention removed")),
      `a retention pass logged within 10 s: ${lines.join(" | ")}`,
    );
    assert.equal(position, reader.read(0, 100).at(-1)?.id, "every spooled item digested");
    assert.equal(await t.store.getSpoolPosition(reader.id), position);
    const [issue] = (await t.store.listIssues(p.id, { page: { limit: 10 } })).items;
    assert.equal(issue?.timesSeen, 7, "all seven counted");
    const kept = (await t.store.listEvents(p.id, "errors", { limit: 10 })).items.map((e) => e.eventId).sort();
    assert.deepEqual(kept, [ids[0], ids[5], ids[6]], "the first event and the newest two");
    assert.match(lines.find((l) => l.includes("retention removed"))!, /removed 0 events received before .* 4 events beyond 2 per issue/);
  } finally {
    reader.close();
    writer.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
