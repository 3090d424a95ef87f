// The intake's in-process entry: an envelope handed over inside the process goes through the same checks as HTTP
// (key, project, quotas, size) into the same spool, and the digest makes its issue; "send a test event" uses it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_EVENT_MESSAGE, sendTestEvent } from "../../src/core/test-event";
import { type TestIntake, startTestIntake } from "../helpers/intake";
import { outcome } from "../helpers/core";

const hex = () => crypto.randomUUID().replace(/-/g, "");
const envelope = (eventId: string, message: string, header: Record<string, unknown> = {}) =>
  Buffer.from(`${JSON.stringify({ event_id: eventId, ...header })}\n{"type":"event"}\n${JSON.stringify({ message, level: "error" })}\n`);

describe("in-process intake", () => {
  let t: TestIntake;
  before(async () => {
    t = await startTestIntake();
  });
  after(() => t.close());

  test("an envelope with a key is spooled and digested into an event of its project, with the client address", async () => {
    const p = t.projects[0];
    const id = hex();
    const answer = await t.submitEnvelope({ body: envelope(id, "in process"), clientIp: "203.0.113.7", auth: { projectId: String(p.id), publicKey: p.key.publicKey } });
    assert.deepEqual(answer, { ok: true, eventId: id });
    const event = await t.waitForEvent(p, id);
    assert.equal(event.title, "in process");
  });

  test("without a key, the envelope's dsn header names the project and key, as for a tunnel", async () => {
    const p = t.projects[1];
    const id = hex();
    const answer = await t.submitEnvelope({ body: envelope(id, "tunnelled", { dsn: p.dsn }), clientIp: "203.0.113.8" });
    assert.deepEqual(answer, { ok: true, eventId: id });
    await t.waitForEvent(p, id);
  });

  test("the intake's refusals apply: unknown key, another project's key, no credentials, a bad envelope, an empty body", async () => {
    const [a, b] = t.projects;
    const refused = async (input: Parameters<TestIntake["submitEnvelope"]>[0]) => {
      const answer = await t.submitEnvelope(input);
      assert.equal(answer.ok, false);
      return answer.ok ? null : [answer.status, answer.reason];
    };
    assert.deepEqual(await refused({ body: envelope(hex(), "x"), clientIp: "1.2.3.4", auth: { projectId: String(a.id), publicKey: "f".repeat(32) } }), [403, "unknown_key"]);
    assert.deepEqual(await refused({ body: envelope(hex(), "x"), clientIp: "1.2.3.4", auth: { projectId: String(b.id), publicKey: a.key.publicKey } }), [403, "project_mismatch"]);
    assert.deepEqual(await refused({ body: envelope(hex(), "x"), clientIp: "1.2.3.4" }), [401, "missing_auth"]);
    assert.deepEqual(await refused({ body: Buffer.from("not an envelope"), clientIp: "1.2.3.4", auth: { projectId: String(a.id), publicKey: a.key.publicKey } }), [400, "bad_envelope_header"]);
    assert.deepEqual(await refused({ body: Buffer.alloc(0), clientIp: "1.2.3.4", auth: { projectId: String(a.id), publicKey: a.key.publicKey } }), [400, "empty_body"]);
  });

  test("sendTestEvent: an error event through the intake becomes an issue; viewers may not send one", async () => {
    const p = t.projects[0];
    const ctx = t.core.as(t.owner);
    const { eventId } = await sendTestEvent(ctx, t.org, p.slug, t.submitEnvelope, "127.0.0.1");
    const event = await t.waitForEvent(p, eventId);
    assert.equal(event.level, "error");
    await t.settle();
    const issues = await t.core.store.listIssues(p.id, { filter: { status: null, level: null, tags: [], text: [TEST_EVENT_MESSAGE] }, page: { limit: 10 } });
    assert.equal(issues.items.length, 1);
    assert.match(issues.items[0]!.title, /^Error: This is a test event/);

    const viewer = await t.core.accounts.createUser({ email: `viewer-${hex()}@example.com`, password: "password123", name: "V" });
    const org = (await t.core.store.getOrganizationBySlug(t.org))!;
    await t.core.store.addMember({ organizationId: org.id, userId: viewer.id, role: "viewer" });
    assert.equal(await outcome(() => sendTestEvent(t.core.as(viewer), t.org, p.slug, t.submitEnvelope, "127.0.0.1")), "forbidden");
    assert.equal(await outcome(() => sendTestEvent(ctx, t.org, p.slug, null, "127.0.0.1")), "bad_request");
  });

  test("sendTestEvent with every key disabled is refused before reaching the intake", async () => {
    const p = t.projects[1];
    await t.core.store.updateKey(p.id, p.key.id, { isActive: false });
    assert.equal(await outcome(() => sendTestEvent(t.core.as(t.owner), t.org, p.slug, t.submitEnvelope, "127.0.0.1")), "bad_request");
    await t.core.store.updateKey(p.id, p.key.id, { isActive: true });
  });
});
