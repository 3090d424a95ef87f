// Invitations sent by mail through the core (src/core/invitations.ts) to a real SMTP server: the link in the
// inviter's language, and a failing or missing mail never failing the invitation.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadMailConfig } from "../../src/config/env";
import { createInvitation, previewInvitation } from "../../src/core/invitations";
import { createOrganization } from "../../src/core/organizations";
import { createMailer, type Mailer } from "../../src/mail/mailer";
import type { User } from "../../src/storage/ports";
import { type TestCore, testCore, uniq } from "../helpers/core";
import { startSmtp, type TestSmtp } from "../helpers/smtp";

const site = { publicUrl: "https://faultline.example.com", basePath: "" };
let t: TestCore;
let smtp: TestSmtp;
let mailer: Mailer;
let owner: User;
let orgSlug: string;
let orgName: string;

before(async () => {
  t = await testCore();
  smtp = await startSmtp();
  mailer = createMailer(loadMailConfig({ FAULTLINE_SMTP_URL: smtp.url, FAULTLINE_MAIL_FROM: "Faultline <faultline@example.com>" }));
  owner = await t.accounts.createUser({ email: `${uniq("owner")}@example.com`, password: "password123", name: "Olga Owner" });
  orgName = uniq("Acme");
  orgSlug = (await createOrganization(t.as(owner), { name: orgName })).slug;
});
after(async () => {
  mailer.close();
  await smtp.close();
  await t.close();
});

const mailing = (locale: string, m: Mailer = mailer) => ({ mailer: m, locale, site, link: (secret: string) => `${site.publicUrl}/${locale}/invite/${secret}` });

test("issue 17 mail: an invitation is mailed in the inviter's language with the link that joins", async () => {
  const email = `${uniq("invitee")}@example.com`;
  const { secret, mail } = await createInvitation(t.as(owner), orgSlug, { email, role: "admin" }, mailing("de"));
  assert.equal(mail.status, "sent");
  assert.match(mail.status === "sent" ? mail.response : "", /^250 /);
  const received = await smtp.waitFor(email, 10_000);
  assert.equal(received.subject, `Olga Owner lädt dich zu ${orgName} auf Faultline ein`);
  assert.match(received.text, new RegExp(`Olga Owner lädt dich in die Organisation ${orgName} ein, als Admin\\.`));
  assert.ok(received.text.includes(`https://faultline.example.com/de/invite/${secret}`));
  assert.ok(received.html.includes(`href="https://faultline.example.com/de/invite/${secret}"`));
  assert.match(received.text, /Du bekommst diese E-Mail, weil Olga Owner auf https:\/\/faultline\.example\.com die Adresse/);
  assert.equal((await previewInvitation(t.store, secret)).open, true, "the mailed link is the invitation's");

  const english = `${uniq("invitee")}@example.com`;
  await createInvitation(t.as(owner), orgSlug, { email: english, role: "member" }, mailing("en"));
  assert.equal((await smtp.waitFor(english, 10_000)).subject, `Olga Owner invites you to ${orgName} on Faultline`);
});

test("issue 17 mail: without mail, or when the SMTP server refuses, the invitation is still made", async () => {
  const none = await createInvitation(t.as(owner), orgSlug, { email: `${uniq("a")}@example.com`, role: "member" }, mailing("en", createMailer(null)));
  assert.equal(none.mail.status, "unavailable");
  assert.equal((await previewInvitation(t.store, none.secret)).open, true);

  const broken = createMailer(
    loadMailConfig({ FAULTLINE_SMTP_URL: `smtp://${smtp.user}:not-the-password@127.0.0.1:${smtp.port}`, FAULTLINE_MAIL_FROM: "faultline@example.com" }),
  );
  try {
    const failed = await createInvitation(t.as(owner), orgSlug, { email: `${uniq("b")}@example.com`, role: "member" }, mailing("en", broken));
    assert.equal(failed.mail.status, "failed");
    assert.doesNotMatch(failed.mail.status === "failed" ? failed.mail.error : "", /not-the-password/);
    assert.equal((await previewInvitation(t.store, failed.secret)).open, true);
  } finally {
    broken.close();
  }
});
