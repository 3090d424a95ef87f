// The dead-letter table (storage/dead-letter-ports.ts), run by conformance.ts on each dialect: records set aside in
// the digest's transaction (once per record, the newest kept within a cap), listed with their project, read back
// byte for byte, marked retried once, discarded, and gone with their project.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeRecord, encodeRecord } from "../../src/ingest/spool-record";
import type { NewDeadLetter } from "../../src/storage/dead-letter-ports";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

let recordId = 1_000_000;

function letter(spoolId: string, projectId: number | null, over: Partial<NewDeadLetter> = {}): NewDeadLetter {
  const id = ++recordId;
  const [head, payload] = encodeRecord({
    kind: "item",
    projectId: projectId ?? 0,
    keyId: 7,
    receivedAt: Date.parse("2026-05-01T10:00:00Z"),
    itemType: "event",
    eventId: "a".repeat(32),
    headers: '{"type":"event"}',
    meta: '{"client_ip":"192.0.2.1"}',
    payload: Buffer.from(`{"message":"poison ${id}","x":"\\u0000"}`),
  });
  return {
    spoolId,
    recordId: id,
    projectId,
    itemType: "event",
    eventId: "a".repeat(32),
    receivedAt: "2026-05-01T10:00:00.000Z",
    record: Buffer.concat([head, payload]),
    error: "22021: invalid byte sequence",
    attempts: 2,
    failedAt: new Date().toISOString(),
    ...over,
  };
}

export function deadLetterConformance(get: () => Fixture) {
  test("dead letters: kept in the digest's transaction once per record, listed newest first with their project, the record byte for byte", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("dl"), name: "DL", ownerUserId: alice.id });
    const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "Poisoned", platform: null });
    const spoolId = uniq("spool");
    const first = letter(spoolId, project.id);
    const outcomes = letter(spoolId, null, { itemType: "outcomes", eventId: null });
    await t.store.digestTransaction((tx) => tx.addDeadLetters([first, outcomes], 1000));
    // The same record again (a batch written again after a crash): nothing new.
    await t.store.digestTransaction((tx) => tx.addDeadLetters([{ ...first, error: "again" }], 1000));
    const { items, total } = await t.store.listDeadLetters(1000);
    const mine = items.filter((d) => d.spoolId === spoolId);
    assert.equal(mine.length, 2);
    assert.ok(total >= 2);
    assert.deepEqual(
      mine.map((d) => d.recordId),
      [outcomes.recordId, first.recordId],
      "newest first",
    );
    const [o, f] = mine as [(typeof mine)[0], (typeof mine)[0]];
    assert.deepEqual(
      {
        projectId: f.projectId,
        projectSlug: f.projectSlug,
        projectName: f.projectName,
        organizationSlug: f.organizationSlug,
        itemType: f.itemType,
        eventId: f.eventId,
        error: f.error,
        attempts: f.attempts,
        size: f.size,
        retriedAt: f.retriedAt,
        receivedAt: f.receivedAt,
      },
      {
        projectId: project.id,
        projectSlug: project.slug,
        projectName: "Poisoned",
        organizationSlug: org.slug,
        itemType: "event",
        eventId: "a".repeat(32),
        error: "22021: invalid byte sequence",
        attempts: 2,
        size: first.record.byteLength,
        retriedAt: null,
        receivedAt: "2026-05-01T10:00:00.000Z",
      },
    );
    assert.deepEqual(
      { projectId: o.projectId, projectSlug: o.projectSlug, itemType: o.itemType },
      { projectId: null, projectSlug: null, itemType: "outcomes" },
    );
    const kept = await t.store.getDeadLetter(f.id);
    assert.ok(kept);
    assert.deepEqual(Buffer.from(kept.record), Buffer.from(first.record));
    const decoded = decodeRecord(Buffer.from(kept.record), 0);
    assert.ok(decoded !== "partial" && decoded !== "corrupt");
    assert.equal(Buffer.from(decoded.record.payload).toString(), `{"message":"poison ${first.recordId}","x":"\\u0000"}`);
    assert.equal(await t.store.getDeadLetter(999_999_999), null);
  });

  test("dead letters: marked retried once, discarded once; the newest kept within the cap; gone with their project", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("dl"), name: "DL", ownerUserId: alice.id });
    const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    const spoolId = uniq("spool");
    const a = letter(spoolId, project.id);
    await t.store.digestTransaction((tx) => tx.addDeadLetters([a], 1000));
    const id = (await t.store.listDeadLetters(1000)).items.find((d) => d.recordId === a.recordId)!.id;
    const at = "2026-05-02T08:00:00.000Z";
    assert.equal(await t.store.markDeadLetterRetried(id, at), true);
    assert.equal(await t.store.markDeadLetterRetried(id, "2026-05-03T08:00:00.000Z"), false, "once");
    assert.equal(await t.store.unmarkDeadLetterRetried(id, "2026-05-03T08:00:00.000Z"), false, "only the claim made at that time is taken back");
    assert.equal(await t.store.unmarkDeadLetterRetried(id, at), true);
    assert.equal((await t.store.getDeadLetter(id))?.letter.retriedAt, null);
    assert.equal(await t.store.markDeadLetterRetried(id, at), true, "claimed again once given back");
    assert.equal((await t.store.getDeadLetter(id))?.letter.retriedAt, at);
    assert.equal(await t.store.deleteDeadLetter(id), true);
    assert.equal(await t.store.deleteDeadLetter(id), false);
    assert.equal(await t.store.markDeadLetterRetried(id, at), false);

    // The cap: three more with a cap of two leave the newest two of all.
    const more = [letter(spoolId, project.id), letter(spoolId, project.id), letter(spoolId, project.id)];
    for (const m of more) await t.store.digestTransaction((tx) => tx.addDeadLetters([m], 2));
    const left = (await t.store.listDeadLetters(1000)).items;
    assert.deepEqual(
      left.map((d) => d.recordId),
      [more[2]!.recordId, more[1]!.recordId],
    );

    await t.store.deleteProject(project.id);
    assert.deepEqual(
      (await t.store.listDeadLetters(1000)).items.filter((d) => d.spoolId === spoolId),
      [],
    );
  });
}
