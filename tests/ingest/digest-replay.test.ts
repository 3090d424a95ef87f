// The digest loop after a commit whose answer was lost: the batch (with its spool position) did commit, so the loop
// must go on from the saved position instead of writing the batch again, which would count its sessions twice.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { runDigestLoop } from "../../src/digest/loop";
import { SpoolReader, SpoolWriter } from "../../src/ingest/spool";
import type { DigestStore } from "../../src/storage/ports";
import { testCore, uniq } from "../helpers/core";

const dir = mkdtempSync(path.join(tmpdir(), "faultline-replay-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("a batch whose commit succeeded but answered with an error is not written again", async () => {
  const t = await testCore();
  const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" });
  const org = await t.store.createOrganization({ slug: uniq("org"), name: "O", ownerUserId: owner.id });
  const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
  const writer = SpoolWriter.open(dir, "normal");
  const reader = SpoolReader.open(dir);
  try {
    const started = new Date(Date.now() - 60_000).toISOString();
    const payload = Buffer.from(JSON.stringify({ aggregates: [{ started, exited: 7, crashed: 3 }], attrs: { release: "r@1" } }));
    await writer.append([
      { projectId: project.id, keyId: 1, receivedAt: Date.now(), itemType: "sessions", eventId: null, headers: '{"type":"sessions"}', meta: "{}", payload },
    ]);
    const last = reader.read(0, 10).pop()!.id;
    // The real store; its first transaction commits and then fails, as when a connection drops before the answer.
    let failed = false;
    const store = {
      ...t.store,
      async digestTransaction<T>(work: Parameters<DigestStore["digestTransaction"]>[0]): Promise<T> {
        const result = (await t.store.digestTransaction(work)) as T;
        if (!failed) {
          failed = true;
          throw new Error("connection lost after COMMIT");
        }
        return result;
      },
    };
    let position = 0;
    await runDigestLoop({ spool: reader, store, onPosition: (p) => (position = p), log: () => undefined, stopped: () => position >= last });
    assert.equal(failed, true);
    const [health] = await t.store.releaseHealth([project.id], ["r@1"], { environments: null, since24h: new Date(Date.now() - 86_400_000).toISOString() });
    assert.deepEqual([health?.sessions, health?.sessionsCrashed], [10, 3]);
  } finally {
    reader.close();
    writer.close();
    await t.close();
  }
});
