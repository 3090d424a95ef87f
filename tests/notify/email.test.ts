// E-mail actions: expanded at send time into one notification per recipient (members of the organization only),
// each sent to a real SMTP server (smtp-server, on loopback) and read back with mailparser; without mail configured,
// recipient notifications fail at once with a clear error. Port 9750.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { sql } from "kysely";
import { loadMailConfig } from "../../src/config/env";
import { createMailer } from "../../src/mail";
import { UNAVAILABLE_MAILER, notificationMailer } from "../../src/notify/mailer";
import { createSender } from "../../src/notify/sender";
import { EMAIL_ACTION, type NotificationAction, RECIPIENT_ACTION } from "../../src/storage/notification-ports";
import { type Seeded, type TestDb, enqueue, notification, seed, settle, testDb } from "./fixtures";

const PORT = 9750;
let t: TestDb;
let s: Seeded;
let smtp: SMTPServer;
const inbox: ParsedMail[] = [];
const waiters = new Set<() => void>();

before(async () => {
  t = await testDb("sqlite");
  s = await seed(t.db);
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          inbox.push(mail);
          for (const w of waiters) w();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(PORT, "127.0.0.1", resolve));
});
after(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await t.close();
});

const emailOf = (userId: string) => `${userId}@example.test`;
const mailer = () =>
  notificationMailer(
    createMailer(loadMailConfig({ FAULTLINE_SMTP_URL: `smtp://127.0.0.1:${PORT}`, FAULTLINE_MAIL_FROM: "Faultline <alerts@faultline.test>" })),
  );

/** Sends everything due, expansion and recipients alike, until the parent and all its children are settled. */
async function sendAll(action: NotificationAction, over: Parameters<typeof notification>[2] = {}, m = mailer()) {
  const parent = notification(s, action, over);
  const [id] = await enqueue(t.db, [parent]);
  const runner = createSender({ store: t.store, mailer: m, log: () => undefined });
  assert.equal(await settle(t.store, id!, () => runner.runOnce()), "sent", "the e-mail action itself is done once expanded");
  const children = await t.db.kysely
    .selectFrom("notifications")
    .select(["id", "idempotency_key", "action"])
    .where("idempotency_key", "like", `${parent.idempotencyKey}:user:%`)
    .execute();
  const states: string[] = [];
  for (const c of children) states.push(await settle(t.store, Number(c.id), () => runner.runOnce()));
  return {
    parent,
    children: children.map((c, i) => ({ id: Number(c.id), key: c.idempotency_key, action: JSON.parse(c.action) as NotificationAction, state: states[i] })),
  };
}

const recipientsOf = (children: { action: NotificationAction }[]) => children.map((c) => (c.action.id === RECIPIENT_ACTION ? c.action.userId : "?")).sort();

test("issue 17 delivery: an e-mail to the issue's owners falls through to the project's team, one notification per member, sent over SMTP", async () => {
  const before = inbox.length;
  const { parent, children } = await sendAll({ id: EMAIL_ACTION, targetType: "IssueOwners", fallthroughType: "ActiveMembers" });
  assert.deepEqual(recipientsOf(children), [s.users.dev, s.users.ops].sort(), "no assignee: the project's team");
  for (const c of children) {
    assert.equal(c.state, "sent");
    assert.ok(c.key.startsWith(`${parent.idempotencyKey}:user:`));
  }
  assert.equal(inbox.length - before, 2);
  const mail = inbox.slice(before).find((m) => m.to && !Array.isArray(m.to) && m.to.text === emailOf(s.users.dev))!;
  assert.ok(mail, "the team member's mail arrived");
  assert.deepEqual(
    mail.from?.value.map((a) => [a.name, a.address]),
    [["Faultline", "alerts@faultline.test"]],
  );
  assert.equal(mail.subject, "[API] New issue: API-1 TypeError: x is undefined");
  assert.match(mail.text ?? "", /https:\/\/faultline\.example\.com\/en\/organizations\/acme\/issues\/1\//);
  assert.match(mail.text ?? "", /because an alert rule of this project notifies you/);
  assert.match(String(mail.html), /<a href="https:\/\/faultline\.example\.com\/en\/organizations\/acme\/issues\/1\/">Open in Faultline<\/a>/);
  assert.match(mail.messageId ?? "", /@faultline\.notifications>$/, "a Message-ID derived from the key: a repeat is the same mail");
  const [attempt] = await t.store.listNotificationAttempts(children[0]!.id);
  assert.equal(attempt!.ok, true);
  assert.equal(attempt!.statusCode, 250);
  assert.match(attempt!.target, /@example\.test$/);
  const parentAttempts = await t.store.listNotificationAttempts(
    (await t.db.kysely.selectFrom("notifications").select("id").where("idempotency_key", "=", parent.idempotencyKey).executeTakeFirstOrThrow()).id,
  );
  assert.deepEqual(
    parentAttempts.map((a) => a.target),
    ["2 recipients (IssueOwners)"],
  );
});

test("issue 17 delivery: the issue's assignee, a user or a team, gets the owners' e-mail; nobody outside the organization ever does", async () => {
  await sql`update issues set assignee_id = ${s.users.owner}, assignee_team_id = null where id = ${s.issueId}`.execute(t.db.kysely);
  assert.deepEqual(recipientsOf((await sendAll({ id: EMAIL_ACTION, targetType: "IssueOwners" })).children), [s.users.owner]);
  await sql`update issues set assignee_id = null, assignee_team_id = ${s.teamId} where id = ${s.issueId}`.execute(t.db.kysely);
  assert.deepEqual(recipientsOf((await sendAll({ id: EMAIL_ACTION, targetType: "IssueOwners" })).children), [s.users.dev, s.users.ops].sort());
  // An assignee who left the organization: the fallthrough, never them.
  await sql`update issues set assignee_id = ${s.users.outsider}, assignee_team_id = null where id = ${s.issueId}`.execute(t.db.kysely);
  assert.deepEqual(
    recipientsOf((await sendAll({ id: EMAIL_ACTION, targetType: "IssueOwners", fallthroughType: "AllMembers" })).children),
    [s.users.owner, s.users.dev, s.users.ops].sort(),
  );
  assert.deepEqual(recipientsOf((await sendAll({ id: EMAIL_ACTION, targetType: "IssueOwners", fallthroughType: "NoOne" })).children), []);
  await sql`update issues set assignee_id = null, assignee_team_id = null where id = ${s.issueId}`.execute(t.db.kysely);
  assert.deepEqual(recipientsOf((await sendAll({ id: EMAIL_ACTION, targetType: "Member", targetIdentifier: s.users.owner })).children), [s.users.owner]);
  assert.deepEqual(
    recipientsOf((await sendAll({ id: EMAIL_ACTION, targetType: "Member", targetIdentifier: s.users.outsider })).children),
    [],
    "a member of another organization",
  );
  assert.deepEqual(
    recipientsOf((await sendAll({ id: EMAIL_ACTION, targetType: "Team", targetIdentifier: String(s.teamId) })).children),
    [s.users.dev, s.users.ops].sort(),
  );
  const foreignTeam = await t.db.kysely
    .insertInto("teams")
    .values({ organization_id: s.otherOrgId, slug: "x", name: "X", created_at: new Date().toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  assert.deepEqual(
    recipientsOf((await sendAll({ id: EMAIL_ACTION, targetType: "Team", targetIdentifier: Number(foreignTeam.id) })).children),
    [],
    "another organization's team",
  );
  const addresses = inbox.flatMap((m) => (m.to && !Array.isArray(m.to) ? [m.to.text] : []));
  assert.ok(!addresses.includes(emailOf(s.users.outsider)), "the outsider never got mail");
});

test("issue 17 delivery: e-mail in German for a recipient whose language is German", async () => {
  const before = inbox.length;
  const n = notification(s, { id: RECIPIENT_ACTION, userId: s.users.dev, email: emailOf(s.users.dev), locale: "de" });
  const [id] = await enqueue(t.db, [n]);
  const runner = createSender({ store: t.store, mailer: mailer(), log: () => undefined });
  assert.equal(await settle(t.store, id!, () => runner.runOnce()), "sent");
  const mail = inbox[before]!;
  assert.equal(mail.subject, "[API] Neues Problem: API-1 TypeError: x is undefined");
  assert.match(mail.text ?? "", /In Faultline öffnen/);
  assert.match(String(mail.html), /<html lang="de">/);
});

test("issue 17 delivery: without mail configured, recipient notifications fail at once with a clear error and are not retried", async () => {
  const { children } = await sendAll({ id: EMAIL_ACTION, targetType: "Team", targetIdentifier: s.teamId }, {}, UNAVAILABLE_MAILER);
  assert.equal(children.length, 2);
  for (const c of children) {
    assert.equal(c.state, "failed");
    const n = await t.store.getNotification(c.id);
    assert.equal(n!.lastError, "e-mail is not configured (FAULTLINE_SMTP_URL and FAULTLINE_MAIL_FROM)");
    assert.equal(n!.attempts, 1);
  }
});
