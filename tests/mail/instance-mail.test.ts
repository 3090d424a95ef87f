// The instance settings' test e-mail through the core: superusers only, the SMTP server's answer or its error
// (without the password), and the settings shown without the password.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadMailConfig } from "../../src/config/env";
import { mailSettings, sendTestMail } from "../../src/core/instance-mail";
import { createMailer, type Mailer } from "../../src/mail/mailer";
import type { User } from "../../src/storage/ports";
import { outcome, type TestCore, testCore, uniq } from "../helpers/core";
import { startSmtp, type TestSmtp } from "../helpers/smtp";

const site = { publicUrl: "https://faultline.example.com", basePath: "/monitor" };
let t: TestCore;
let smtp: TestSmtp;
let mailer: Mailer;
let root: User;
let plain: User;

before(async () => {
  t = await testCore();
  smtp = await startSmtp();
  mailer = createMailer(loadMailConfig({ FAULTLINE_SMTP_URL: smtp.url, FAULTLINE_MAIL_FROM: "Faultline <faultline@example.com>" }));
  root = await t.accounts.createUser({ email: `${uniq("root")}@example.com`, password: "password123", name: "Root", isSuperuser: true });
  plain = await t.accounts.createUser({ email: `${uniq("plain")}@example.com`, password: "password123", name: "Plain" });
});
after(async () => {
  mailer.close();
  await smtp.close();
  await t.close();
});

test("issue 17 mail: a superuser's test e-mail arrives and the page gets the SMTP server's answer", async () => {
  const sent = await sendTestMail(t.as(root), mailer, site, "en", { to: "check@example.com" });
  assert.equal(sent.status, "sent");
  assert.match(sent.status === "sent" ? sent.response : "", /^250 /);
  const mail = await smtp.waitFor("check@example.com", 10_000);
  assert.equal(mail.subject, "Faultline test e-mail");
  assert.match(mail.text, /Root sent this test e-mail from the instance settings of https:\/\/faultline\.example\.com\/monitor\./);
  assert.match(mail.text, /Open Faultline: https:\/\/faultline\.example\.com\/monitor\/en/);
  const shown = mailSettings(t.as(root), mailer);
  assert.deepEqual(shown, { host: "127.0.0.1", port: smtp.port, secure: false, user: smtp.user, from: "Faultline <faultline@example.com>" });
  assert.doesNotMatch(JSON.stringify(shown), new RegExp(smtp.password));
});

test("issue 17 mail: only superusers may send a test e-mail or see the mail settings; bad addresses are refused", async () => {
  assert.equal(await outcome(() => sendTestMail(t.as(plain), mailer, site, "en", { to: "check@example.com" })), "forbidden");
  assert.throws(() => mailSettings(t.as(plain), mailer));
  for (const to of ["a@example.com\r\nBcc: b@example.com", "", "x".repeat(100_000), "a\u0000@example.com"]) {
    assert.equal(await outcome(() => sendTestMail(t.as(root), mailer, site, "en", { to })), "bad_request");
  }
});

test("issue 17 mail: a failing SMTP login is reported without the password, and no mail set up says unavailable", async () => {
  const wrong = createMailer(
    loadMailConfig({ FAULTLINE_SMTP_URL: `smtp://${smtp.user}:wrong-secret-pw@127.0.0.1:${smtp.port}`, FAULTLINE_MAIL_FROM: "faultline@example.com" }),
  );
  try {
    const failed = await sendTestMail(t.as(root), wrong, site, "de", { to: "check@example.com" });
    assert.equal(failed.status, "failed");
    assert.match(failed.status === "failed" ? failed.error : "", /535/);
    assert.doesNotMatch(failed.status === "failed" ? failed.error : "", /wrong-secret-pw/);
  } finally {
    wrong.close();
  }
  assert.deepEqual(await sendTestMail(t.as(root), createMailer(null), site, "en", { to: "check@example.com" }), { status: "unavailable" });
  assert.equal(mailSettings(t.as(root), createMailer(null)), null);
});
