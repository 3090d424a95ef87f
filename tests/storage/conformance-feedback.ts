// User feedback (issue 19), run by conformance.ts on each dialect: feedback rows written in the digest's batch
// transaction (user reports and feedback events), linked to the associated event's issue whichever arrives first,
// stored once however often a batch is written, listed per organization with status filters, triaged, and the API's
// own insert.
import assert from "node:assert/strict";
import { test } from "node:test";
import { writeBatch } from "../../src/digest/commit";
import { feedbackOfEvent, feedbackOfUserReport } from "../../src/digest/feedback";
import type { DigestedEvent } from "../../src/digest/items";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

const newId = () => crypto.randomUUID().replace(/-/g, "");

function errorEvent(projectId: number, hash: string, eventId = newId()): DigestedEvent {
  const now = new Date().toISOString();
  return {
    projectId,
    eventId,
    type: "error",
    receivedAt: now,
    timestamp: now,
    platform: "python",
    level: "error",
    title: "E: boom",
    message: "boom",
    culprit: "",
    release: null,
    environment: null,
    size: 10,
    data: "{}",
    category: "error",
    grouping: { config: "c", hashes: [hash] },
    metadata: "{}",
    userKey: null,
    tags: [],
  };
}

function feedbackEvent(projectId: number, associated: string | null, message: string): DigestedEvent {
  const eventId = newId();
  const now = new Date().toISOString();
  const event = {
    event_id: eventId,
    type: "feedback",
    environment: "prod",
    user: { email: "ann@example.com" },
    tags: [["url", "https://shop.example/cart"]],
    contexts: {
      feedback: { message, contact_email: "ann@example.com", name: "Ann", url: "https://shop.example/cart", associated_event_id: associated, source: "widget" },
      browser: { name: "Chrome", version: "120" },
    },
  };
  return {
    projectId,
    eventId,
    type: "feedback",
    receivedAt: now,
    timestamp: now,
    platform: "javascript",
    level: "info",
    title: message,
    message,
    culprit: "",
    release: null,
    environment: "prod",
    size: 10,
    data: JSON.stringify(event),
    category: "feedback",
    grouping: { config: "c", hashes: [newId()] },
    metadata: "{}",
    userKey: null,
    tags: [],
    feedback: feedbackOfEvent(event, projectId, eventId, now),
  };
}

export function feedbackConformance(get: () => Fixture) {
  async function setup() {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("fb"), name: "FB", ownerUserId: alice.id });
    const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("web"), name: "Web", platform: null });
    const other = await t.store.createOrganization({ slug: uniq("fb-other"), name: "Other", ownerUserId: alice.id });
    const q = await t.store.createProject({ organizationId: other.id, teamId: null, slug: uniq("q"), name: "Q", platform: null });
    return { t, alice, org, p, other, q };
  }
  const batch = (parts: Partial<Parameters<typeof writeBatch>[1]>) => ({
    spoolId: uniq("spool"),
    position: 1,
    rawItems: [],
    outcomes: [],
    events: [],
    ...parts,
  });

  test("issue 19 feedback: a user report before its event waits, and is linked to the issue when the event comes", async () => {
    const { t, org, p } = await setup();
    const error = errorEvent(p.id, uniq("h"));
    const now = new Date().toISOString();
    const report = feedbackOfUserReport({ event_id: error.eventId, name: "Bob", email: "bob@example.com", comments: "It broke" }, p.id, now, "user_report");
    await writeBatch(t.store, batch({ feedback: [report] }));
    let [row] = await t.store.listFeedback({ organizationId: org.id, status: null, limit: 10 });
    assert.equal(row?.message, "It broke");
    assert.equal(row?.issueId, null, "no event yet");
    assert.equal(row?.eventStored, false);
    await writeBatch(t.store, batch({ events: [error] }));
    [row] = await t.store.listFeedback({ organizationId: org.id, status: null, limit: 10 });
    assert.ok(row?.issueId !== null && row?.issue, "linked once the event is stored");
    assert.equal(row.eventStored, true);
    const stored = await t.store.listIssueFeedback(row.issueId!, 10);
    assert.deepEqual(
      stored.map((f) => f.id),
      [row.id],
    );
    // Sent again (Sentry keeps one report per event, the newest): one row, the new comments, the link kept.
    await writeBatch(t.store, batch({ feedback: [{ ...report, message: "It broke twice" }] }));
    const all = await t.store.listFeedback({ organizationId: org.id, status: null, limit: 10 });
    assert.equal(all.length, 1);
    assert.equal(all[0]?.message, "It broke twice");
    assert.equal(all[0]?.issueId, row.issueId);
  });

  test("issue 19 feedback: a feedback event after its event is linked at once, stored once when its batch is written twice, with its details", async () => {
    const { t, org, p } = await setup();
    const error = errorEvent(p.id, uniq("h"));
    await writeBatch(t.store, batch({ events: [error] }));
    const fb = feedbackEvent(p.id, error.eventId, "The checkout button does nothing");
    const again = batch({ events: [fb] });
    await writeBatch(t.store, again);
    await writeBatch(t.store, again);
    const rows = await t.store.listFeedback({ organizationId: org.id, status: null, limit: 10 });
    assert.equal(rows.length, 1);
    const row = rows[0]!;
    assert.equal(row.source, "feedback");
    assert.equal(row.feedbackEventId, fb.eventId);
    assert.equal(row.associatedEventId, error.eventId);
    assert.ok(row.issue && row.issue.title === "E: boom");
    assert.deepEqual([row.name, row.email, row.url], ["Ann", "ann@example.com", "https://shop.example/cart"]);
    assert.equal(row.details.browser, "Chrome 120");
    assert.equal(row.details.environment, "prod");
    assert.deepEqual(row.details.user, { email: "ann@example.com" });
    // A feedback without an associated event stays unlinked.
    await writeBatch(t.store, batch({ events: [feedbackEvent(p.id, null, "General praise")] }));
    const alone = (await t.store.listFeedback({ organizationId: org.id, status: null, limit: 10 }))[0]!;
    assert.equal(alone.message, "General praise");
    assert.equal(alone.issue, null);
  });

  test("issue 19 feedback: listed per organization newest first, filtered by status, paged, triaged; another organization's is not found", async () => {
    const { t, alice, org, p, other, q } = await setup();
    const now = new Date().toISOString();
    const reports = [1, 2, 3].map((n) => feedbackOfUserReport({ event_id: newId(), name: `N${n}`, email: "", comments: `c${n}` }, p.id, now, "user_report"));
    await writeBatch(t.store, batch({ feedback: [...reports, feedbackOfUserReport({ event_id: newId(), comments: "elsewhere" }, q.id, now, "user_report")] }));
    const listed = await t.store.listFeedback({ organizationId: org.id, status: "new", limit: 2 });
    assert.deepEqual(
      listed.map((f) => f.message),
      ["c3", "c2"],
    );
    const next = await t.store.listFeedback({ organizationId: org.id, status: "new", limit: 2, beforeId: listed[1]!.id });
    assert.deepEqual(
      next.map((f) => f.message),
      ["c1"],
    );
    const resolved = await t.store.updateFeedback(org.id, listed[0]!.id, { status: "resolved", assigneeUserId: alice.id });
    assert.equal(resolved?.status, "resolved");
    assert.equal(resolved?.assigneeUserId, alice.id);
    await t.store.updateFeedback(org.id, listed[1]!.id, { status: "spam" });
    assert.deepEqual(await t.store.countFeedback(org.id), { new: 1, resolved: 1, spam: 1 });
    assert.deepEqual(
      (await t.store.listFeedback({ organizationId: org.id, status: "resolved", limit: 10 })).map((f) => f.message),
      ["c3"],
    );
    assert.deepEqual(await t.store.listFeedback({ organizationId: org.id, status: null, projectIds: [], limit: 10 }), []);
    assert.equal(await t.store.getFeedback(other.id, listed[0]!.id), null, "scoped to its organization");
    assert.equal(await t.store.updateFeedback(other.id, listed[0]!.id, { status: "new" }), null);
    assert.equal((await t.store.getFeedback(org.id, listed[0]!.id))?.projectSlug, p.slug);
  });

  test("issue 19 feedback: the user-feedback API's insert links to a stored event and replaces an earlier report", async () => {
    const { t, p } = await setup();
    const error = errorEvent(p.id, uniq("h"));
    await writeBatch(t.store, batch({ events: [error] }));
    const now = new Date().toISOString();
    // As core/feedback-submit.ts writes it: the digest's insert, in a transaction of its own.
    const submit = async (comments: string) => {
      const row = feedbackOfUserReport({ event_id: error.eventId, name: "C", email: "c@example.com", comments }, p.id, now, "api");
      const [written] = await t.store.digestTransaction((tx) => tx.insertFeedback([row]));
      return (await t.store.getFeedback(p.organizationId, written!.id))!;
    };
    const first = await submit("first");
    assert.ok(first.issue);
    const second = await submit("second");
    assert.equal(second.id, first.id);
    assert.equal(second.message, "second");
  });
}
