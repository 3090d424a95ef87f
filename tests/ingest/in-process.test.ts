// The intake's in-process entry: an envelope handed over inside the process goes through the same checks as HTTP
// (key, project, quotas, size) into the same spool, and the digest makes its issue; "send a test event" uses it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { TEST_EVENT_MESSAGE, sendTestEvent } from "../../src/core/test-event";
import { tunnelEnvelope } from "../../src/ingest/tunnel";
import { type TestIntake, startTestIntake } from "../helpers/intake";
import { joinByInvitation, outcome } from "../helpers/core";

const hex = () => crypto.randomUUID().replace(/-/g, "");
const envelope = (eventId: string, message: string, header: Record<string, unknown> = {}) =>
  Buffer.from(`${JSON.stringify({ event_id: eventId, ...header })}\n{"type":"event"}\n${JSON.stringify({ message, level: "error" })}\n`);

/**
 * The DSN with its project path under `prefix`. (A string replace of "/<project id>" hit the "//" of the scheme when
 * the random public key began with the project's id: a malformed DSN, 400 where the test expected 403.)
 */
function underPath(dsn: string, prefix: string): string {
  const u = new URL(dsn);
  u.pathname = prefix + u.pathname;
  return u.toString();
}
describe("in-process intake", () => {
  let t: TestIntake;
  before(async () => {
    t = await startTestIntake();
  });
  after(() => t.close());

  test("an envelope with a key is spooled and digested into an event of its project, with the client address", async () => {
    const p = t.projects[0];
    const id = hex();
    const answer = await t.submitEnvelope({
      body: envelope(id, "in process"),
      clientIp: "203.0.113.7",
      auth: { projectId: String(p.id), publicKey: p.key.publicKey },
    });
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
    assert.deepEqual(await refused({ body: envelope(hex(), "x"), clientIp: "1.2.3.4", auth: { projectId: String(a.id), publicKey: "f".repeat(32) } }), [
      403,
      "unknown_key",
    ]);
    assert.deepEqual(await refused({ body: envelope(hex(), "x"), clientIp: "1.2.3.4", auth: { projectId: String(b.id), publicKey: a.key.publicKey } }), [
      403,
      "project_mismatch",
    ]);
    assert.deepEqual(await refused({ body: envelope(hex(), "x"), clientIp: "1.2.3.4" }), [401, "missing_auth"]);
    assert.deepEqual(
      await refused({ body: Buffer.from("not an envelope"), clientIp: "1.2.3.4", auth: { projectId: String(a.id), publicKey: a.key.publicKey } }),
      [400, "bad_envelope_header"],
    );
    assert.deepEqual(await refused({ body: Buffer.alloc(0), clientIp: "1.2.3.4", auth: { projectId: String(a.id), publicKey: a.key.publicKey } }), [
      400,
      "empty_body",
    ]);
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
    await joinByInvitation(t.core, ctx, t.org, { email: viewer.email, role: "viewer" });
    assert.equal(await outcome(() => sendTestEvent(t.core.as(viewer), t.org, p.slug, t.submitEnvelope, "127.0.0.1")), "forbidden");
    assert.equal(await outcome(() => sendTestEvent(ctx, t.org, p.slug, null, "127.0.0.1")), "bad_request");
  });

  test("sendTestEvent with every key disabled is refused before reaching the intake", async () => {
    const p = t.projects[1];
    await t.core.store.updateKey(p.id, p.key.id, { isActive: false });
    assert.equal(await outcome(() => sendTestEvent(t.core.as(t.owner), t.org, p.slug, t.submitEnvelope, "127.0.0.1")), "bad_request");
    await t.core.store.updateKey(p.id, p.key.id, { isActive: true });
  });

  test("the browser tunnel takes an envelope whose DSN is this install's key, and is no open proxy: 403 for another DSN, 400 for a malformed envelope", async () => {
    const [a] = t.projects;
    const install = { publicUrl: new URL(a.dsn).origin, basePath: "" };
    const tunnel = (body: Buffer) => tunnelEnvelope({ body, clientIp: "203.0.113.9", userAgent: "test" }, install, t.submitEnvelope);
    const id = hex();
    assert.deepEqual(await tunnel(envelope(id, "through the tunnel", { dsn: a.dsn })), { status: 200, body: { id } });
    await t.waitForEvent(a, id);
    // Another server's DSN (Sentry's hosted ingest, or this key at another host or path): refused, never forwarded.
    const elsewhere = [`https://${a.key.publicKey}@o1.ingest.sentry.io/${a.id}`, a.dsn.replace("127.0.0.1", "localhost"), underPath(a.dsn, "/base")];
    for (const dsn of elsewhere) assert.equal((await tunnel(envelope(hex(), "x", { dsn }))).status, 403, dsn);
    // This install, but no key of it: the intake's 403.
    assert.equal((await tunnel(envelope(hex(), "x", { dsn: a.dsn.replace(a.key.publicKey, "f".repeat(32)) }))).status, 403);
    for (const bad of [
      Buffer.alloc(0),
      Buffer.from("not json\n"),
      Buffer.from("[1]\n"),
      envelope(hex(), "no dsn"),
      envelope(hex(), "x", { dsn: 5 }),
      envelope(hex(), "x", { dsn: "not a url" }),
    ]) {
      const answer = await tunnel(bad);
      assert.equal(answer.status, 400, bad.toString());
      assert.equal(typeof answer.body.detail, "string");
    }
    // Under a base path, the DSN carries it.
    const based = { publicUrl: install.publicUrl, basePath: "/monitor" };
    const id2 = hex();
    const answer = await tunnelEnvelope(
      { body: envelope(id2, "based", { dsn: underPath(a.dsn, "/monitor") }), clientIp: "203.0.113.9", userAgent: null },
      based,
      t.submitEnvelope,
    );
    assert.deepEqual(answer, { status: 200, body: { id: id2 } });
    assert.equal(
      (await tunnelEnvelope({ body: envelope(hex(), "x", { dsn: a.dsn }), clientIp: "203.0.113.9", userAgent: null }, based, t.submitEnvelope)).status,
      403,
    );
  });
});
