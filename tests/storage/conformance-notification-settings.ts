// Personal notification settings and workflow notices (issue 17, "People"), run by conformance.ts on each dialect:
// settings default on and are kept per person, project and organization; recipientPreferences; assignment, comment
// and regression notices reach exactly the people they should, and writing the same change again adds nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { addComment } from "../../src/core/issue-comments";
import { setIssueSubscription } from "../../src/core/issue-subscriptions";
import { updateIssue } from "../../src/core/issues";
import { writeDueSummaries } from "../../src/core/weekly-summary";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import { dbBool } from "../../src/storage/kysely/shared";
import { workflowTx } from "../../src/storage/kysely/workflow-notices";
import type { IssueNotificationPayload, NotificationAction, SummaryNotificationPayload } from "../../src/storage/notification-ports";
import type { User } from "../../src/storage/ports";
import { joinByInvitation, type TestCore, uniq } from "../helpers/core";
import { digestedEvent } from "../helpers/digested-event";

type Fixture = { t: TestCore; alice: User };

export function notificationSettingsConformance(get: () => Fixture) {
  const person = async (name: string) => {
    const { t } = get();
    return t.accounts.createUser({ email: `${uniq(name.toLowerCase())}@example.com`, password: "password123", name });
  };

  /** An organization of alice's with a team project and these people as members, and one issue. */
  async function world<N extends string>(names: N[]) {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("people"), name: "People", ownerUserId: alice.id });
    const team = await t.store.createTeam({ organizationId: org.id, slug: uniq("team"), name: "Team" });
    const project = await t.store.createProject({ organizationId: org.id, teamId: team.id, slug: uniq("app"), name: "App", platform: "python" });
    const users = {} as Record<N, User>;
    for (const name of names) {
      users[name] = await person(name);
      await joinByInvitation(t, t.as(alice), org.slug, { email: users[name].email, role: "member" });
    }
    await write([event(project.id, "w")]);
    const issue = (await t.store.listIssues(project.id, { page: { limit: 10 } })).items[0]!;
    return { org, team, project, users, issue };
  }
  const event = (projectId: number, hash: string, over: Partial<DigestedEvent> = {}) => digestedEvent("PeopleError", projectId, hash, over);
  const write = (events: DigestedEvent[], spoolId = uniq("spool"), position = 1) =>
    writeBatch(get().t.store, { spoolId, position, events, rawItems: [], outcomes: [] });

  /** The issue's workflow notices: "trigger → e-mail" per row, sorted; and the rows' keys. */
  async function notices(issueId: number) {
    const rows = await get()
      .t.db.kysely.selectFrom("notifications")
      .select(["action", "payload", "idempotency_key", "source"])
      .where("issue_id", "=", issueId)
      .where("source", "=", "workflow")
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      action: JSON.parse(r.action) as Extract<NotificationAction, { id: "faultline.mail.recipient" }>,
      payload: JSON.parse(r.payload) as IssueNotificationPayload,
      key: r.idempotency_key,
    }));
  }
  const who = async (issueId: number, trigger: string) =>
    (await notices(issueId))
      .filter((n) => n.payload.trigger === trigger)
      .map((n) => n.action.email.split("-")[0])
      .sort();

  test("issue 17 people: settings default on, are kept per person, project and organization, and read back alike", async () => {
    const { t } = get();
    const w = await world(["Bob"]);
    const bob = w.users.Bob;
    assert.deepEqual(await t.store.getUserNotificationSettings(bob.id), { locale: null, timeZone: null, workflow: true });
    await t.store.setUserNotificationSettings(bob.id, { locale: "de", timeZone: "Pacific/Auckland", workflow: false }, "2026-11-23T10:00:00.000Z");
    await t.store.setUserNotificationSettings(bob.id, { locale: "de", timeZone: "America/Los_Angeles", workflow: false }, "2026-11-23T11:00:00.000Z");
    assert.deepEqual(await t.store.getUserNotificationSettings(bob.id), { locale: "de", timeZone: "America/Los_Angeles", workflow: false });
    const other = await t.store.createProject({ organizationId: w.org.id, teamId: null, slug: uniq("other"), name: "Other", platform: null });
    assert.deepEqual(
      [...(await t.store.projectEmailSettings(bob.id, [w.project.id, other.id]))],
      [
        [w.project.id, true],
        [other.id, true],
      ],
    );
    await t.store.setProjectEmail(bob.id, other.id, false);
    await t.store.setProjectEmail(bob.id, other.id, false);
    assert.deepEqual(
      [...(await t.store.projectEmailSettings(bob.id, [w.project.id, other.id]))],
      [
        [w.project.id, true],
        [other.id, false],
      ],
    );
    assert.equal((await t.store.weeklySummarySettings(bob.id, [w.org.id])).get(w.org.id), true);
    await t.store.setWeeklySummary(bob.id, w.org.id, false);
    assert.equal((await t.store.weeklySummarySettings(bob.id, [w.org.id])).get(w.org.id), false);
    assert.equal(
      (await t.store.weeklySummaryCandidates()).some((c) => c.userId === bob.id && c.organization.id === w.org.id),
      false,
    );
    await t.store.setWeeklySummary(bob.id, w.org.id, true);
    const candidate = (await t.store.weeklySummaryCandidates()).find((c) => c.userId === bob.id && c.organization.id === w.org.id);
    assert.deepEqual(candidate && { locale: candidate.locale, timeZone: candidate.timeZone }, { locale: "de", timeZone: "America/Los_Angeles" });
    assert.equal(await t.store.getIssueSubscription(bob.id, w.issue.id), null);
    await t.store.setIssueSubscription(bob.id, w.issue.id, true, "2026-11-23T10:00:00.000Z");
    assert.deepEqual(await t.store.getIssueSubscription(bob.id, w.issue.id), { isActive: true, reason: "subscribed" });
    await t.store.setIssueSubscription(bob.id, w.issue.id, false, "2026-11-23T10:00:00.000Z");
    assert.deepEqual(await t.store.getIssueSubscription(bob.id, w.issue.id), { isActive: false, reason: "subscribed" });
  });

  test("issue 17 people: recipientPreferences gives the project's organization's members who want its e-mail, in their language", async () => {
    const { t, alice } = get();
    const w = await world(["Bob", "Carol", "Dave"]);
    const { Bob: bob, Carol: carol, Dave: dave } = w.users;
    const stranger = await person("Stranger");
    await t.store.setUserNotificationSettings(carol.id, { locale: "de", timeZone: null, workflow: true }, "2026-11-23T10:00:00.000Z");
    await t.store.setProjectEmail(dave.id, w.project.id, false);
    const prefs = await t.store.recipientPreferences([bob.id, carol.id, dave.id, stranger.id, alice.id], w.project.id);
    assert.deepEqual(
      prefs.map((r) => [r.userId, r.locale]).sort(),
      [
        [alice.id, "en"],
        [bob.id, "en"],
        [carol.id, "de"],
      ].sort(),
    );
    assert.deepEqual(await t.store.recipientPreferences([], w.project.id), []);
  });

  test("issue 17 people: in an organization requiring two-factor, a member without it is sent nothing of it (alerts, notices, summaries) until they enrol", async () => {
    const { t, alice } = get();
    const w = await world(["Bob", "Carol"]);
    const { Bob: bob, Carol: carol } = w.users;
    const enrol = (u: User) =>
      t.db.kysely
        .updateTable("users")
        .set({ two_factor_enabled: dbBool(t.db.dialect, true) })
        .where("id", "=", u.id)
        .execute();
    for (const u of [bob, carol]) {
      const member = (await t.store.getMembership(w.org.id, u.id))!;
      await t.store.addTeamMember(w.team.id, member.id);
      await t.store.setIssueSubscription(u.id, w.issue.id, true, "2026-11-23T10:00:00.000Z");
    }
    await enrol(alice);
    await enrol(carol);
    await t.store.setRequireTwoFactor(w.org.id, true);
    const ids = (rs: { userId: string }[]) => rs.map((r) => r.userId).sort();
    const summaries = async () => ids((await t.store.weeklySummaryCandidates()).filter((c) => c.organization.id === w.org.id));
    const heard = async () => ({
      organization: ids(await t.store.listOrganizationRecipients(w.org.id)),
      named: ids(await t.store.listOrganizationRecipients(w.org.id, [bob.id, carol.id])),
      team: ids(await t.store.listTeamRecipients(w.org.id, w.team.id)),
      alerts: ids(await t.store.recipientPreferences([alice.id, bob.id, carol.id], w.project.id)),
      workflow: ids(await t.store.issueWorkflowRecipients(w.issue.id)),
      summaries: await summaries(),
    });
    const withoutBob = [alice.id, carol.id].sort();
    assert.deepEqual(await heard(), {
      organization: withoutBob,
      named: [carol.id],
      team: [carol.id],
      alerts: withoutBob,
      workflow: [carol.id],
      summaries: withoutBob,
    });
    await enrol(bob);
    const everyone = [alice.id, bob.id, carol.id].sort();
    assert.deepEqual(await heard(), {
      organization: everyone,
      named: [bob.id, carol.id].sort(),
      team: [bob.id, carol.id].sort(),
      alerts: everyone,
      workflow: [bob.id, carol.id].sort(),
      summaries: everyone,
    });
  });

  test("issue 17 people: an assignment notifies the assignee (a team: its members) except the one who assigned; the same change again adds nothing", async () => {
    const { t, alice } = get();
    const w = await world(["Bob", "Carol", "Dave"]);
    const { Bob: bob, Carol: carol, Dave: dave } = w.users;
    await updateIssue(t.as(alice), w.issue.id, { assignedTo: `user:${bob.id}` });
    assert.deepEqual(await who(w.issue.id, "assigned"), ["bob"]);
    const [first] = await notices(w.issue.id);
    assert.match(first!.key, new RegExp(`^workflow:assigned:\\d+:${bob.id}$`));
    assert.equal(first!.payload.actor?.email, alice.email);
    assert.equal(first!.payload.issueUrl, `http://localhost:${process.env.PORT || 9000}/en/orgs/${w.org.slug}/issues/${w.issue.id}`);
    assert.equal(first!.payload.issue.shortId, `${w.project.slug.toUpperCase()}-1`);
    assert.deepEqual(await t.store.getIssueSubscription(bob.id, w.issue.id), { isActive: true, reason: "assigned" }, "the assignee takes part");
    // Assigning oneself tells nobody.
    await updateIssue(t.as(carol), w.issue.id, { assignedTo: `user:${carol.id}` });
    assert.deepEqual(await who(w.issue.id, "assigned"), ["bob"]);
    // A team: its members, less the one who assigned, less one who unsubscribed from the issue.
    for (const u of [alice, carol, dave]) await t.store.addTeamMember(w.team.id, (await t.store.getMembership(w.org.id, u.id))!.id);
    await setIssueSubscription(t.as(dave), w.issue.id, { subscribed: "off" });
    await updateIssue(t.as(alice), w.issue.id, { assignedTo: `team:${w.team.id}` });
    assert.deepEqual(await who(w.issue.id, "assigned"), ["bob", "carol"]);
    // The same decision written again (a replayed request's transaction) adds no row.
    const activity = (
      await t.db.kysely
        .selectFrom("issue_activity")
        .select("id")
        .where("issue_id", "=", w.issue.id)
        .where("type", "=", "assigned")
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow()
    ).id;
    const again = await t.db.kysely.transaction().execute((trx) =>
      workflowTx(trx, t.db.dialect).enqueueWorkflowNotices([
        {
          trigger: "assigned",
          issueId: w.issue.id,
          key: String(activity),
          actorUserId: alice.id,
          to: "assignee",
          linkBase: "http://x",
          createdAt: "2026-11-23T10:00:00.000Z",
        },
      ]),
    );
    assert.equal(again, 0);
    assert.deepEqual(await who(w.issue.id, "assigned"), ["bob", "carol"]);
  });

  test("issue 17 people: a comment notifies participants and subscribers except its author, those who unsubscribed and those with workflow notices off", async () => {
    const { t, alice } = get();
    const w = await world(["Bob", "Carol", "Dave", "Erin", "Frank"]);
    const { Bob: bob, Carol: carol, Dave: dave, Erin: erin } = w.users;
    await updateIssue(t.as(alice), w.issue.id, { assignedTo: `user:${bob.id}` }); // bob takes part (assigned)
    await setIssueSubscription(t.as(carol), w.issue.id, { subscribed: "on" }); // carol subscribes
    await addComment(t.as(dave), w.issue.id, { text: "first" }); // dave takes part (commented), then unsubscribes
    await setIssueSubscription(t.as(dave), w.issue.id, { subscribed: "off" });
    await setIssueSubscription(t.as(erin), w.issue.id, { subscribed: "on" });
    await t.store.setUserNotificationSettings(erin.id, { locale: null, timeZone: null, workflow: false }, "2026-11-23T10:00:00.000Z");
    await t.store.setUserNotificationSettings(carol.id, { locale: "de", timeZone: null, workflow: true }, "2026-11-23T10:00:00.000Z");
    const before = (await notices(w.issue.id)).length;
    await addComment(t.as(bob), w.issue.id, { text: "Looking into it" });
    const comments = (await notices(w.issue.id)).slice(before);
    assert.deepEqual(comments.map((n) => n.action.email.split("-")[0]).sort(), ["carol"]);
    assert.equal(comments[0]!.action.locale, "de");
    assert.equal(comments[0]!.payload.text, "Looking into it");
    assert.match(comments[0]!.payload.issueUrl, /\/de\/orgs\//);
    // Commenting again does not subscribe dave again; frank, who never took part, hears nothing.
    await addComment(t.as(dave), w.issue.id, { text: "again" });
    assert.deepEqual(await t.store.getIssueSubscription(dave.id, w.issue.id), { isActive: false, reason: "comment" });
    assert.deepEqual(
      (await notices(w.issue.id))
        .slice(before + 1)
        .map((n) => n.action.email.split("-")[0])
        .sort(),
      ["bob", "carol"],
    );
    assert.deepEqual((await t.store.issueWorkflowRecipients(w.issue.id)).map((r) => r.userId).sort(), [bob.id, carol.id].sort());
  });

  test("issue 17 people: a regression notifies participants and subscribers once; the batch written again adds nothing", async () => {
    const { t, alice } = get();
    const w = await world(["Bob", "Carol"]);
    const { Bob: bob, Carol: carol } = w.users;
    await setIssueSubscription(t.as(bob), w.issue.id, { subscribed: "on" });
    await setIssueSubscription(t.as(carol), w.issue.id, { subscribed: "on" });
    await setIssueSubscription(t.as(carol), w.issue.id, { subscribed: "off" });
    await addComment(t.as(alice), w.issue.id, { text: "fixed, I think" });
    await updateIssue(t.as(alice), w.issue.id, { status: "resolved" });
    const spoolId = uniq("spool");
    const back = [
      event(w.project.id, "w", { timestamp: "2026-11-24T10:00:00.000Z", receivedAt: "2026-11-24T10:00:01.000Z", tags: [["url", "https://shop.example/cart"]] }),
    ];
    await write(back, spoolId, 2);
    assert.equal((await t.store.getIssue(w.issue.id))?.status, "unresolved", "it regressed");
    assert.deepEqual(await who(w.issue.id, "regression"), ["alice", "bob"], "alice commented, bob subscribed; carol unsubscribed");
    const regression = (await notices(w.issue.id)).filter((n) => n.payload.trigger === "regression");
    assert.equal(regression[0]!.payload.event?.eventId, back[0]!.eventId);
    assert.equal(regression[0]!.payload.event?.url, "https://shop.example/cart");
    assert.equal(regression[0]!.key, `workflow:regression:${w.issue.id}:${back[0]!.eventId}:${regression[0]!.action.userId}`);
    await write(back, spoolId, 2);
    assert.equal((await notices(w.issue.id)).filter((n) => n.payload.trigger === "regression").length, 2);
  });

  test("issue 17 people: the weekly summary's figures for each person's own week, one outbox row per person, organization and week", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("summary"), name: "Summary", ownerUserId: alice.id });
    const project = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("shop"), name: "Shop", platform: "python" });
    const nz = await person("Nz");
    const la = await person("La");
    const off = await person("Off");
    for (const u of [nz, la, off]) await joinByInvitation(t, t.as(alice), org.slug, { email: u.email, role: "member" });
    await t.store.setUserNotificationSettings(nz.id, { locale: "de", timeZone: "Pacific/Auckland", workflow: true }, "2026-11-01T00:00:00.000Z");
    await t.store.setUserNotificationSettings(la.id, { locale: null, timeZone: "America/Los_Angeles", workflow: true }, "2026-11-01T00:00:00.000Z");
    await t.store.setWeeklySummary(off.id, org.id, false);
    const at = (timestamp: string, hash: string) => event(project.id, hash, { timestamp, receivedAt: timestamp });
    // Auckland's week W47: 2026-11-15T11:00Z to 2026-11-22T11:00Z; Los Angeles': 2026-11-16T08:00Z to 2026-11-23T08:00Z.
    await write([at("2026-11-01T10:00:00.000Z", "d"), at("2026-11-17T00:30:00.000Z", "d")]); // old: counted, not new
    await write([at("2026-11-15T12:00:00.000Z", "b")]); // Auckland's week only
    await write([at("2026-11-16T12:00:00.000Z", "a"), at("2026-11-16T12:10:00.000Z", "a"), at("2026-11-16T12:20:00.000Z", "a")]);
    await write([at("2026-11-22T20:00:00.000Z", "c"), at("2026-11-22T20:30:00.000Z", "c")]); // Los Angeles' week only
    await t.db.kysely
      .insertInto("release_session_counts")
      .values([
        { project_id: project.id, release: "1.0", environment: "production", hour: "2026-11-17T00:00:00Z", started: 200, errored: 5, crashed: 3, abnormal: 0 },
        { project_id: project.id, release: "1.0", environment: "production", hour: "2026-11-22T20:00:00Z", started: 100, errored: 0, crashed: 0, abnormal: 0 },
      ])
      .execute();
    const issues = new Map((await t.store.listIssues(project.id, { page: { limit: 10 } })).items.map((i) => [i.title.slice(-1), i]));
    const summaries = async () => {
      const rows = await t.db.kysely
        .selectFrom("notifications")
        .select(["action", "payload", "idempotency_key"])
        .where("organization_id", "=", org.id)
        .where("source", "=", "weekly_summary")
        .orderBy("id")
        .execute();
      return rows.map((r) => ({
        to: (JSON.parse(r.action) as { userId: string }).userId,
        key: r.idempotency_key,
        p: JSON.parse(r.payload) as SummaryNotificationPayload,
      }));
    };
    const base = "https://faultline.example/monitor";
    // Monday 08:05 in Auckland (Sunday 19:05 UTC, 11:05 in Los Angeles): only the Auckland person's is due.
    await writeDueSummaries(t.store, new Date("2026-11-22T19:05:00Z"), base);
    await writeDueSummaries(t.store, new Date("2026-11-22T19:10:00Z"), base);
    const first = await summaries();
    assert.deepEqual(
      first.map((s) => [s.to, s.key]),
      [[nz.id, `summary:${org.id}:${nz.id}:2026-W47`]],
    );
    const shortId = (k: string) => `${project.slug.toUpperCase()}-${issues.get(k)!.shortId}`;
    assert.deepEqual(first[0]!.p, {
      kind: "summary",
      organization: { id: org.id, slug: org.slug, name: "Summary" },
      from: "2026-11-16",
      to: "2026-11-22",
      newIssues: 2,
      events: 5,
      topIssues: [
        { shortId: shortId("a"), title: issues.get("a")!.title, count: 3, url: `${base}/de/orgs/${org.slug}/issues/${issues.get("a")!.id}` },
        { shortId: shortId("d"), title: issues.get("d")!.title, count: 1, url: `${base}/de/orgs/${org.slug}/issues/${issues.get("d")!.id}` },
        { shortId: shortId("b"), title: issues.get("b")!.title, count: 1, url: `${base}/de/orgs/${org.slug}/issues/${issues.get("b")!.id}` },
      ],
      crashFreeSessions: 98.5,
      url: `${base}/de/orgs/${org.slug}/issues`,
    });
    // Monday 08:05 in Los Angeles (16:05 UTC): hers, and the UTC people's (alice); Auckland's was written already.
    await writeDueSummaries(t.store, new Date("2026-11-23T16:05:00Z"), base);
    const second = (await summaries()).slice(1);
    assert.deepEqual(second.map((s) => s.to).sort(), [alice.id, la.id].sort(), "the person who turned it off gets none");
    const las = second.find((s) => s.to === la.id)!.p;
    assert.deepEqual(
      [las.newIssues, las.events, las.topIssues.map((i) => [i.shortId, i.count]), las.crashFreeSessions],
      [
        2,
        6,
        [
          [shortId("a"), 3],
          [shortId("c"), 2],
          [shortId("d"), 1],
        ],
        99,
      ],
    );
  });
}
