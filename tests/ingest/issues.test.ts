// From the intake to issues, over real HTTP with the real spool and digest worker: events are normalized and grouped
// (Sentry's newstyle:2023-01-11), join or open issues, and a malformed field is kept as a processing error.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "../../src/core/errors";
import { getIssue, issueEventAt, listIssueEvents, listProjectIssues, updateIssue } from "../../src/core/issues";
import { type TestIntake, startTestIntake } from "../helpers/intake";
import { uniq } from "../helpers/core";

const hex = () => crypto.randomUUID().replace(/-/g, "");
const post = (url: string, body: string) => fetch(url, { method: "POST", body });

describe("events into issues", () => {
  let t: TestIntake;
  before(async () => {
    t = await startTestIntake();
  });
  after(() => t.close());

  const send = (project: TestIntake["projects"][number], payload: Record<string, unknown>, type = "event") => {
    const id = hex();
    const url = t.url("envelope", project, `?sentry_key=${project.key.publicKey}&sentry_version=7`);
    return post(url, `{"event_id":"${id}"}\n{"type":"${type}"}\n${JSON.stringify({ platform: "javascript", ...payload })}\n`).then((r) => {
      assert.equal(r.status, 200);
      return id;
    });
  };
  const browserError = (value: string) => ({
    exception: {
      values: [
        {
          type: "TypeError",
          value,
          stacktrace: {
            frames: [
              { filename: "https://shop.example/static/vendor.js", function: "dispatch", lineno: 1, colno: 200, in_app: false },
              { filename: "https://shop.example/static/app.js", function: "Checkout.submit", lineno: 10, colno: 5, in_app: true },
            ],
          },
        },
      ],
    },
  });

  test("two errors with the same stack trace share an issue, with Sentry's title, culprit and a short id", async () => {
    const p = t.projects[0];
    const first = await send(p, browserError("x is undefined"));
    const second = await send(p, browserError("y is undefined"));
    await t.settle();
    const a = await t.core.store.getEvent(p.id, first);
    const b = await t.core.store.getEvent(p.id, second);
    assert.ok(a?.issueId && a.issueId === b?.issueId, "the value does not split an issue whose stack trace contributes");
    const issue = (await t.core.store.getIssue(a.issueId))!;
    assert.equal(issue.timesSeen, 2);
    assert.equal(issue.shortId, 1);
    assert.equal(issue.type, "error");
    assert.equal(issue.title, "TypeError: y is undefined");
    assert.equal(issue.culprit, "Checkout.submit(/static/app.js)", "Sentry's JavaScript culprit: the in-app function and its file's path");
    assert.deepEqual([issue.metadata.type, issue.metadata.function], ["TypeError", "Checkout.submit"]);
    const data = JSON.parse(a.data) as { fingerprints: string[]; exception: { values: unknown[] } };
    assert.ok(data.fingerprints.length >= 1 && data.fingerprints.every((h) => /^[0-9a-f]{32}$/.test(h)), "the stored event carries its grouping hashes");
  });

  test("messages group by their parameterized text; transactions open no issue", async () => {
    const p = t.projects[1];
    const one = await send(p, { message: "User 1234 failed to pay 19.99" });
    const two = await send(p, { message: "User 98 failed to pay 5.00" });
    const other = await send(p, { message: "Cart emptied" });
    const tx = await send(
      p,
      {
        type: "transaction",
        transaction: "/checkout",
        start_timestamp: Date.now() / 1000 - 1,
        timestamp: Date.now() / 1000,
        contexts: { trace: { trace_id: hex(), span_id: hex().slice(0, 16) } },
        spans: [],
      },
      "transaction",
    );
    await t.settle();
    const [e1, e2, e3, e4] = await Promise.all([one, two, other, tx].map((id) => t.core.store.getEvent(p.id, id)));
    assert.equal(e1?.issueId, e2?.issueId, "numbers are parameters: <int>, <float>");
    assert.notEqual(e1?.issueId, e3?.issueId);
    assert.equal(e4?.type, "transaction");
    assert.equal(e4?.issueId, null);
    const issues = await t.core.store.listIssues(p.id, { filter: { status: "unresolved", level: null, tags: [], text: [] }, page: { limit: 10 } });
    assert.equal(issues.items.length, 2);
  });

  test("a field of the wrong type is dropped with a processing error; the event is still stored and grouped", async () => {
    const p = t.projects[0];
    const id = await send(p, { message: "odd event", level: { not: "a level" }, timestamp: "yesterday-ish", tags: 5 });
    await t.settle();
    const stored = await t.core.store.getEvent(p.id, id);
    assert.ok(stored?.issueId, "grouped");
    const data = JSON.parse(stored.data) as { errors: { type: string; name: string }[]; level: string };
    assert.equal(data.level, "error");
    const names = data.errors.map((e) => `${e.type}:${e.name}`);
    assert.ok(names.includes("invalid_data:level"), names.join(", "));
    assert.ok(
      names.some((n) => n.endsWith(":timestamp")),
      names.join(", "),
    );
    assert.ok(
      names.some((n) => n.endsWith(":tags")),
      names.join(", "),
    );
  });

  test("the issue services: search, sorts and events for members; another organization's issue is not found", async () => {
    const p = t.projects[0];
    await send(p, { message: "searchable payment timeout", level: "warning", release: "web@2.0" });
    await t.settle();
    const owner = (await t.core.store.listMembers((await t.core.store.getOrganizationBySlug(t.org))!.id))[0]!;
    const member = t.core.as((await t.core.store.getUserById(owner.userId))!);
    const page = { limit: 50 };
    const found = await listProjectIssues(member, t.org, p.slug, { query: "payment level:warning release:web@2.0", sort: null, page });
    assert.deepEqual(
      found.page.items.map((i) => i.title),
      ["searchable payment timeout"],
    );
    assert.equal((await listProjectIssues(member, t.org, p.slug, { query: "payment level:error", sort: null, page })).page.items.length, 0);
    const all = await listProjectIssues(member, t.org, p.slug, { query: "", sort: "new", page });
    assert.ok(all.page.items.length >= 3);
    assert.ok(
      all.page.items.every((i, n, list) => n === 0 || list[n - 1]!.firstSeen >= i.firstSeen),
      "sort=new: newest first seen first",
    );
    await assert.rejects(
      listProjectIssues(member, t.org, p.slug, { query: null, sort: "priority", page }),
      (e: unknown) => isAppError(e) && e.code === "bad_request",
    );
    const issue = found.page.items[0]!;
    const events = await listIssueEvents(member, String(issue.id), page);
    assert.equal(events.page.items.length, 1);
    assert.equal((await issueEventAt(member, issue.id, "oldest")).event.eventId, events.page.items[0]!.eventId);
    const stranger = t.core.as(await t.core.accounts.createUser({ email: `${uniq("stranger")}@example.com`, password: "password123", name: "S" }));
    await assert.rejects(getIssue(stranger, issue.id), (e: unknown) => isAppError(e) && e.code === "not_found");
    await assert.rejects(getIssue(member, "nope"), (e: unknown) => isAppError(e) && e.code === "not_found");
  });

  test("a resolved issue regresses on a new event; resolved in a release, older releases do not reopen it; an ignore ends after N events", async () => {
    const p = t.projects[1];
    const owner = (await t.core.store.listMembers((await t.core.store.getOrganizationBySlug(t.org))!.id))[0]!;
    const member = t.core.as((await t.core.store.getUserById(owner.userId))!);
    const idOf = async (eventId: string) => (await t.core.store.getEvent(p.id, eventId))!.issueId!;
    const first = await send(p, { message: "lifecycle check", release: "shop@1.0.0" });
    await t.settle();
    const issueId = await idOf(first);
    await updateIssue(member, issueId, { status: "resolved", statusDetails: { inRelease: "shop@1.1.0" } });
    await send(p, { message: "lifecycle check", release: "shop@1.0.0" });
    await t.settle();
    assert.equal((await t.core.store.getIssue(issueId))?.status, "resolved", "an older release still has the bug: no regression");
    await send(p, { message: "lifecycle check", release: "shop@1.2.0" });
    await t.settle();
    const regressed = (await t.core.store.getIssue(issueId))!;
    assert.deepEqual([regressed.status, regressed.substatus], ["unresolved", "regressed"]);
    await updateIssue(member, issueId, { status: "ignored", statusDetails: { ignoreCount: 2 } });
    await send(p, { message: "lifecycle check" });
    await t.settle();
    assert.equal((await t.core.store.getIssue(issueId))?.status, "ignored", "one event of two");
    await send(p, { message: "lifecycle check" });
    await t.settle();
    const back = (await t.core.store.getIssue(issueId))!;
    assert.deepEqual([back.status, back.substatus], ["unresolved", "escalating"]);
    const types = (await t.core.store.issueActivity(issueId)).map((a) => a.type);
    assert.deepEqual(types, ["first_seen", "set_resolved_in_release", "set_regression", "set_ignored", "set_escalating"]);
    assert.equal((await t.core.store.issueActivity(issueId))[1]?.userId, owner.userId, "who changed the status is recorded");
  });
});
