// A person's data (issue 18), run by conformance.ts on each dialect: events found by each part of their user through
// the rows the digest writes in its transaction, exported as one JSON file, and erased with what they were counted in,
// while the issues keep their totals and other people's events stay.
import assert from "node:assert/strict";
import { test } from "node:test";
import { erasePersonData, exportPersonData, findPersonEvents, listErasures } from "../../src/core/personal-data";
import { findPersonEverywhere } from "../../src/core/personal-data-instance";
import { writeBatch } from "../../src/digest/commit";
import { issueTags, userKey } from "../../src/digest/event-facts";
import { userParts } from "../../src/digest/event-users";
import { feedbackOfUserReport } from "../../src/digest/feedback";
import type { DigestedEvent } from "../../src/digest/items";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

type Fixture = { t: TestCore; alice: User };

/** An event as the digest hands it to commit.ts: its facts computed from its data as items.ts computes them. */
function digested(projectId: number, hash: string, user: Record<string, unknown>, extra: Record<string, unknown> = {}): DigestedEvent {
  const eventId = crypto.randomUUID().replace(/-/g, "");
  const now = new Date().toISOString();
  const event = { event_id: eventId, level: "error", platform: "python", user, tags: [["tier", "gold"]], message: "boom", ...extra };
  const key = userKey(event);
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
    data: JSON.stringify(event),
    category: "error",
    grouping: { config: "c", hashes: [hash] },
    metadata: "{}",
    userKey: key,
    userParts: userParts(event),
    tags: issueTags(event, key),
  };
}

async function collect(chunks: AsyncGenerator<string>): Promise<string> {
  let out = "";
  for await (const c of chunks) out += c;
  return out;
}

export function personalDataConformance(get: () => Fixture) {
  async function setup() {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("pd"), name: "PD", ownerUserId: alice.id });
    const a = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("a"), name: "A", platform: null });
    const b = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("b"), name: "B", platform: null });
    const other = await t.store.createOrganization({ slug: uniq("pd-other"), name: "Other", ownerUserId: alice.id });
    const c = await t.store.createProject({ organizationId: other.id, teamId: null, slug: uniq("c"), name: "C", platform: null });
    const ann = { id: 42, email: "ann@example.com", ip_address: "192.0.2.1" };
    const e1 = digested(a.id, "h1", ann);
    const e2 = digested(b.id, "h2", { username: "ann", email: "ann@example.com" });
    const e3 = digested(a.id, "h1", { id: "7", email: "bob@example.com" });
    const e4 = digested(a.id, "h1", ann);
    const e5 = digested(c.id, "h1", ann);
    await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events: [e1, e2, e3, e4, e5] });
    // The same batch again (after a crash): no second row of anything.
    await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events: [e1] });
    await t.store.digestTransaction((tx) =>
      tx.insertRawItems([
        {
          projectId: a.id,
          type: "attachment",
          eventId: e1.eventId,
          receivedAt: e1.receivedAt,
          headers: "{}",
          payload: new Uint8Array([1, 2, 3]),
          category: "attachment",
          quantity: 3,
        },
      ]),
    );
    // An attachment of ann's event as issue 19 keeps them: a row and its blob.
    const blobKey = `pd${crypto.randomUUID().replace(/-/g, "")}`;
    await t.store.attachmentBlobs.write(blobKey, new Uint8Array([9, 9, 9]));
    await writeBatch(t.store, {
      spoolId: uniq("spool"),
      position: 3,
      rawItems: [],
      outcomes: [],
      events: [],
      attachments: [
        {
          projectId: a.id,
          eventId: e1.eventId,
          blobKey,
          name: "screen.png",
          contentType: "image/png",
          attachmentType: "event.attachment",
          size: 3,
          storedSize: 3,
          codec: "gzip",
          sha1: "0".repeat(40),
          receivedAt: e1.receivedAt,
        },
      ],
    });
    // User feedback (issue 19): about ann's event, from ann's address about nothing stored, and about bob's event.
    const report = (projectId: number, eventId: string, email: string, comments: string) =>
      feedbackOfUserReport({ event_id: eventId, email, comments }, projectId, e1.receivedAt, "user_report");
    const someEvent = crypto.randomUUID().replace(/-/g, "");
    await writeBatch(t.store, {
      spoolId: uniq("spool"),
      position: 2,
      rawItems: [],
      outcomes: [],
      events: [],
      feedback: [
        report(a.id, e1.eventId, "", "about ann's error"),
        report(b.id, someEvent, "ann@example.com", "from ann"),
        report(a.id, e3.eventId, "bob@example.com", "from bob"),
      ],
    });
    return { t, alice, org, a, b, c, e1, e2, e3, e4, e5, blobKey };
  }

  test("issue 18 personal data: found by id, e-mail, username and IP address, exactly, in the organization's projects only", async () => {
    const { t, alice, org, a, b, e1, e2, e4 } = await setup();
    const ctx = t.as(alice);
    const ids = async (field: string, value: string) =>
      (await findPersonEvents(ctx, org.slug, { field, value })).matches.map((m) => `${m.projectSlug}:${m.eventId}:${m.fields.join("+")}`).sort();
    assert.deepEqual(await ids("id", "42"), [`${a.slug}:${e1.eventId}:id`, `${a.slug}:${e4.eventId}:id`].sort());
    assert.deepEqual(
      await ids("email", "ann@example.com"),
      [`${a.slug}:${e1.eventId}:email`, `${a.slug}:${e4.eventId}:email`, `${b.slug}:${e2.eventId}:email`].sort(),
    );
    assert.deepEqual(await ids("username", "ann"), [`${b.slug}:${e2.eventId}:username`]);
    assert.deepEqual(await ids("ip", "192.0.2.1"), [`${a.slug}:${e1.eventId}:ip`, `${a.slug}:${e4.eventId}:ip`].sort());
    assert.deepEqual(await ids("any", "ann"), [`${b.slug}:${e2.eventId}:username`]);
    assert.deepEqual(await ids("email", "ANN@example.com"), [], "exact match");
    assert.deepEqual(await ids("id", "4"), [], "no prefix match");
    const found = await findPersonEvents(ctx, org.slug, { value: "ann@example.com" });
    assert.equal(found.search.field, "any");
    assert.equal(found.matches.length, 3, "the other organization's event is not listed");
  });

  test("issue 18 personal data: superusers search every organization at once", async () => {
    const { t, alice, org, c, e1, e4, e5 } = await setup();
    const { matches } = await findPersonEverywhere(t.as(alice), { field: "ip", value: "192.0.2.1" });
    const mine = matches.filter((m) => [e1, e4, e5].some((e) => e.eventId === m.eventId));
    assert.equal(mine.length, 3);
    assert.deepEqual(new Set(mine.map((m) => m.organizationSlug)), new Set([org.slug, (await t.store.getOrganizationById(c.organizationId))!.slug]));
  });

  test("issue 18 personal data: the export holds each matching event's stored data and where it matched", async () => {
    const { t, alice, org, a, e1, e4 } = await setup();
    const { filename, chunks } = await exportPersonData(t.as(alice), org.slug, { field: "ip", value: "192.0.2.1" });
    assert.match(filename, /^personal-data-.+-ip\.json$/);
    const file = JSON.parse(await collect(chunks)) as {
      organization: string;
      field: string;
      value: string;
      truncated: boolean;
      events: { project: string; eventId: string; matched: string[]; event: { user: { email: string } } }[];
    };
    assert.equal(file.organization, org.slug);
    assert.equal(file.truncated, false);
    assert.deepEqual(file.events.map((e) => e.eventId).sort(), [e1.eventId, e4.eventId].sort());
    for (const e of file.events) {
      assert.equal(e.project, a.slug);
      assert.deepEqual(e.matched, ["ip"]);
      assert.equal(e.event.user.email, "ann@example.com");
    }
  });

  test("an event whose stored data is damaged on disk still reads with its columns, is exported as null and is erased", async () => {
    const { t, alice, org, a, e1, e4 } = await setup();
    await t.db.kysely
      .updateTable("events")
      .set({ data: Buffer.from([0x01, 0xff, 0x00, 0x13]) } as never)
      .where("project_id", "=", a.id)
      .where("event_id", "=", e4.eventId)
      .execute();
    const damaged = await t.store.getEvent(a.id, e4.eventId);
    assert.ok(damaged, "the event still reads");
    assert.equal(damaged.title, "E: boom");
    assert.equal(damaged.data, "{}");
    assert.match(damaged.unreadable ?? "", /does not inflate/);
    const fine = await t.store.getEvent(a.id, e1.eventId);
    assert.equal(fine?.unreadable, undefined);
    assert.equal((JSON.parse(fine!.data) as { user: { email: string } }).user.email, "ann@example.com");
    const listed = await t.store.listEvents(a.id, "errors", { limit: 10, cursor: null });
    assert.equal(listed.items.length, 3, "the project's list is not failed by one damaged row");
    assert.equal(listed.items.filter((e) => e.unreadable).length, 1);
    const issueEvents = await t.store.listIssueEvents(damaged.issueId!, { limit: 10, cursor: null });
    assert.ok(issueEvents.items.some((e) => e.eventId === e4.eventId && e.unreadable));

    const { chunks } = await exportPersonData(t.as(alice), org.slug, { field: "ip", value: "192.0.2.1" });
    const file = JSON.parse(await collect(chunks)) as { events: { eventId: string; event: { user: { email: string } } | null }[] };
    assert.deepEqual(
      file.events.map((e) => [e.eventId, e.event === null ? null : e.event.user.email]).sort(),
      [
        [e1.eventId, "ann@example.com"],
        [e4.eventId, null],
      ].sort(),
    );

    const result = await erasePersonData(t.as(alice), org.slug, { field: "ip", value: "192.0.2.1" });
    assert.equal(result.totals.events, 2, "the damaged event is erased with the other");
    const left = await t.db.kysely.selectFrom("events").select("event_id").where("event_id", "in", [e1.eventId, e4.eventId]).execute();
    assert.deepEqual(left, []);
  });

  test("issue 18/19 personal data: the export holds the person's user feedback, about their events and from their address", async () => {
    const { t, alice, org, a, b, e1 } = await setup();
    const read = async (field: string, value: string) =>
      JSON.parse(await collect((await exportPersonData(t.as(alice), org.slug, { field, value })).chunks)) as {
        events: unknown[];
        feedback: { project: string; message: string; associatedEventId: string | null; email: string; source: string }[];
      };
    const byIp = await read("ip", "192.0.2.1");
    assert.deepEqual(
      byIp.feedback.map((f) => [f.project, f.message, f.associatedEventId]),
      [[a.slug, "about ann's error", e1.eventId]],
      "by IP address: the feedback about her events, not the one sent from her address",
    );
    const byEmail = await read("email", "ann@example.com");
    assert.deepEqual(
      byEmail.feedback.map((f) => [f.project, f.message]).sort(),
      [
        [a.slug, "about ann's error"],
        [b.slug, "from ann"],
      ].sort(),
    );
    assert.ok(byEmail.feedback.every((f) => f.source === "user_report" && !("id" in f)));
    const bob = await read("email", "nobody@example.com");
    assert.deepEqual([bob.events, bob.feedback], [[], []]);
  });

  test("issue 18 personal data: erasure leaves no event of the person, the issue's user count down and totals kept, others untouched", async () => {
    const { t, alice, org, a, b, c, e1, e3, e5, blobKey } = await setup();
    const db = t.db.kysely;
    const issueA = await db.selectFrom("issues").select(["id", "times_seen", "user_count"]).where("project_id", "=", a.id).executeTakeFirstOrThrow();
    assert.equal(Number(issueA.times_seen), 3);
    assert.equal(Number(issueA.user_count), 2);
    const result = await erasePersonData(t.as(alice), org.slug, { field: "email", value: "ann@example.com" });
    assert.deepEqual(result.totals, { events: 3, attachments: 2, tagValues: 4, users: 2, feedback: 2 });
    assert.equal(await t.store.attachmentBlobs.has(blobKey), false, "the attachment's blob is gone with its row (issue 19)");
    assert.deepEqual(
      (await db.selectFrom("user_feedback").select("message").where("project_id", "in", [a.id, b.id]).execute()).map((r) => r.message),
      ["from bob"],
      "the feedback about ann's event and from her address is gone",
    );
    assert.equal(result.projects.length, 2);
    assert.equal(result.more, false);
    assert.deepEqual((await findPersonEvents(t.as(alice), org.slug, { value: "ann@example.com" })).matches, []);
    assert.deepEqual((await findPersonEvents(t.as(alice), org.slug, { field: "ip", value: "192.0.2.1" })).matches, []);
    const after = await db.selectFrom("issues").select(["times_seen", "user_count"]).where("id", "=", issueA.id).executeTakeFirstOrThrow();
    assert.equal(Number(after.times_seen), 3, "the issue keeps its total");
    assert.equal(Number(after.user_count), 1);
    const users = await db.selectFrom("issue_users").select("user_key").where("issue_id", "=", issueA.id).execute();
    assert.deepEqual(
      users.map((u) => u.user_key),
      ["id:7"],
    );
    const tags = await db
      .selectFrom("issue_tags")
      .select(["key", "value", "times_seen"])
      .where("issue_id", "=", issueA.id)
      .where("key", "in", ["user", "tier"])
      .orderBy("key")
      .orderBy("value")
      .execute();
    assert.deepEqual(
      tags.map((r) => [r.key, r.value, Number(r.times_seen)]),
      [
        ["tier", "gold", 1],
        ["user", "id:7", 1],
      ],
    );
    const left = await db.selectFrom("events").select("event_id").where("project_id", "in", [a.id, c.id]).execute();
    assert.deepEqual(left.map((r) => r.event_id).sort(), [e3.eventId, e5.eventId].sort(), "bob's event and the other organization's stay");
    assert.equal((await db.selectFrom("raw_items").select("id").where("event_id", "=", e1.eventId).execute()).length, 0, "the attachment is gone");
    assert.equal(
      (await db.selectFrom("event_users").select("event_row_id").where("email", "=", "ann@example.com").where("project_id", "in", [a.id, b.id]).execute())
        .length,
      0,
      "her user rows in the organization are gone",
    );
    // The erasure is an entry of the organization's audit trail (issue 20), as personal_data_erasures rows were.
    const record = await t.store.listAudit({ organizationId: org.id, events: ["personal-data.erase"], limit: 10 });
    assert.equal(record.length, 1);
    assert.equal(record[0]!.actorUserId, alice.id);
    const data = JSON.parse(record[0]!.data);
    assert.equal(data.field, "email");
    assert.deepEqual(data.counts, { events: 3, attachments: 2, tagValues: 4, users: 2, feedback: 2, projects: 2 });
    assert.ok(!record[0]!.data.includes("ann") && !record[0]!.note.includes("ann"), "the record does not name the person");
    const shown = await listErasures(t.as(alice), org.slug);
    assert.deepEqual(
      shown.map((e) => [e.actor, e.field, e.counts.events]),
      [[alice.email, "email", 3]],
    );
    // Deleting bob's issue takes its user rows with it (foreign key).
    await t.store.deleteIssue(issueA.id);
    assert.equal(
      (await db.selectFrom("event_users").select("event_row_id").where("email", "=", "bob@example.com").where("project_id", "=", a.id).execute()).length,
      0,
    );
    // Again: nothing left to erase.
    assert.deepEqual((await erasePersonData(t.as(alice), org.slug, { field: "email", value: "ann@example.com" })).totals, {
      events: 0,
      attachments: 0,
      tagValues: 0,
      users: 0,
      feedback: 0,
    });
  });

  test("issue 18 personal data: erasure keeps a user counted while another stored event of the issue counted them, whichever part gave the key", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("pd-key"), name: "PD", ownerUserId: alice.id });
    const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    // Counted by id: one event also has the e-mail address erased, the other has the id alone.
    const zedBoth = digested(p.id, "zed", { id: 99, email: "zed@example.com" });
    const zedId = digested(p.id, "zed", { id: 99 });
    // Counted by e-mail: the id is blank, so the key is not the first part's (it is kept with the row).
    const quinn = digested(p.id, "quinn", { id: " ", email: "quinn@example.com" });
    const quinnIp = digested(p.id, "quinn", { id: " ", email: "quinn@example.com", ip_address: "192.0.2.77" });
    assert.equal(quinn.userKey, "email:quinn@example.com");
    await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events: [zedBoth, zedId, quinn, quinnIp] });
    const db = t.db.kysely;
    const counted = async () =>
      (
        await db
          .selectFrom("issue_users")
          .innerJoin("issues", "issues.id", "issue_users.issue_id")
          .select("user_key")
          .where("issues.project_id", "=", p.id)
          .execute()
      )
        .map((r) => r.user_key)
        .sort();
    assert.deepEqual(await counted(), ["email:quinn@example.com", "id:99"]);

    assert.equal((await erasePersonData(t.as(alice), org.slug, { field: "email", value: "zed@example.com" })).totals.users, 0);
    assert.equal((await erasePersonData(t.as(alice), org.slug, { field: "ip", value: "192.0.2.77" })).totals.users, 0);
    assert.deepEqual(await counted(), ["email:quinn@example.com", "id:99"], "each user is still counted by an event left");

    assert.equal((await erasePersonData(t.as(alice), org.slug, { field: "id", value: "99" })).totals.users, 1);
    assert.equal((await erasePersonData(t.as(alice), org.slug, { field: "email", value: "quinn@example.com" })).totals.users, 1);
    assert.deepEqual(await counted(), [], "the last events took their users with them");
  });
}
