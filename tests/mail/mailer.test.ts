// Outgoing mail through a real SMTP server on loopback (tests/helpers/smtp.ts): what arrives, in both languages, and
// what is refused before anything is sent.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { inspect } from "node:util";
import { ConfigError, loadConfig, loadMailConfig } from "../../src/config/env";
import { appUrl, renderLayout } from "../../src/mail/layout";
import { createMailer, MailInputError, MailSendError, MailUnavailableError } from "../../src/mail/mailer";
import { hasOpenssl, startSmtp, type TestSmtp } from "../helpers/smtp";

const FROM = "Faultline Alerts <alerts@example.com>";
let smtp: TestSmtp;
before(async () => {
  smtp = await startSmtp();
});
after(() => smtp.close());

const mailerFor = (url: string, ca?: string) => createMailer(loadMailConfig({ FAULTLINE_SMTP_URL: url, FAULTLINE_MAIL_FROM: FROM }), { ca });

const layout = (locale: string) =>
  renderLayout(locale, {
    heading: locale === "de" ? "Neues Problem: TypeError" : "New issue: TypeError",
    paragraphs: ["Cannot read <b>properties</b> & more", "second line"],
    link: { url: appUrl("https://faultline.example.com/", "/monitor", "/en/orgs/acme/issues/42"), label: "Open the issue" },
    footer: {
      why: "You are on the team of backend.",
      stop: "Turn it off in your settings.",
      link: { url: "https://faultline.example.com/monitor/en/account", label: "Settings" },
    },
  });

test("issue 17 mail: a message arrives with From, subject, a text and an HTML part, the link and the footer", async () => {
  const mailer = mailerFor(smtp.url);
  try {
    const result = await mailer.send({ to: "dev@example.com", ...layout("en"), headers: { "X-Faultline-Notification": "abc-123" } });
    assert.equal(result.code, 250);
    assert.match(result.response, /^250 /);
    assert.ok(result.messageId.length > 0);
    assert.deepEqual(result.accepted, ["dev@example.com"]);
    const mail = await smtp.waitFor("dev@example.com", 10_000);
    assert.equal(mail.from, '"Faultline Alerts" <alerts@example.com>');
    assert.equal(mail.envelope.from, "alerts@example.com");
    assert.equal(mail.user, smtp.user, "authenticated with the URL's user and password");
    assert.equal(mail.subject, "New issue: TypeError");
    assert.equal(mail.headers.get("x-faultline-notification"), "abc-123");
    assert.match(mail.text, /Cannot read <b>properties<\/b> & more/);
    assert.match(mail.text, /Open the issue: https:\/\/faultline\.example\.com\/monitor\/en\/orgs\/acme\/issues\/42/);
    assert.match(mail.text, /You are on the team of backend\./);
    assert.match(mail.text, /Turn it off in your settings\. Settings: https:\/\/faultline\.example\.com\/monitor\/en\/account/);
    assert.match(mail.html, /<html lang="en">/);
    assert.match(mail.html, /Cannot read &lt;b&gt;properties&lt;\/b&gt; &amp; more/, "HTML is escaped");
    assert.match(mail.html, /href="https:\/\/faultline\.example\.com\/monitor\/en\/orgs\/acme\/issues\/42"/);
    assert.doesNotMatch(mail.html, /<img|<link|<script|url\(|@import/i, "nothing is loaded from elsewhere");
    assert.match(mail.html, /If the button does not work/);
  } finally {
    mailer.close();
  }
});

test("issue 17 mail: the layout is written in German for de and in English for any other locale", async () => {
  const de = layout("de");
  assert.match(de.html, /<html lang="de">/);
  assert.match(de.html, /Falls die Schaltfläche nicht funktioniert/);
  assert.equal(de.subject, "Neues Problem: TypeError");
  const other = layout("fr");
  assert.match(other.html, /<html lang="en">/);
  const mailer = mailerFor(smtp.url);
  try {
    await mailer.send({ to: "de@example.com", ...de });
    const mail = await smtp.waitFor("de@example.com", 10_000);
    assert.equal(mail.subject, "Neues Problem: TypeError");
    assert.match(mail.text, /^Neues Problem: TypeError\n/);
    assert.match(mail.html, /Falls die Schaltfläche nicht funktioniert, öffne diese Adresse:/);
  } finally {
    mailer.close();
  }
});

test("issue 17 mail: header injection through a recipient, the subject or a header is refused before sending", async () => {
  const mailer = mailerFor(smtp.url);
  const ok = layout("en");
  const refused = [
    { ...ok, to: "a@example.com\r\nBcc: victim@example.com" },
    { ...ok, to: "a@example.com, victim@example.com" },
    { ...ok, to: "Someone <a@example.com>" },
    { ...ok, to: "a@example.com\u0000" },
    { ...ok, to: [] },
    { ...ok, to: "a@example.com", subject: "Hello\r\nBcc: victim@example.com" },
    { ...ok, to: "a@example.com", subject: "Hello\nX-Evil: 1" },
    { ...ok, to: "a@example.com", subject: "NUL\u0000inside" },
    { ...ok, to: "a@example.com", subject: "x".repeat(10_000) },
    { ...ok, to: "a@example.com", headers: { "X-Ok": "1\r\nBcc: victim@example.com" } },
    { ...ok, to: "a@example.com", headers: { Bcc: "victim@example.com" } },
    { ...ok, to: "a@example.com", headers: { "X-Bad Name": "1" } },
    { ...ok, to: "a@example.com", text: "x".repeat(2 * 1024 * 1024) },
  ];
  try {
    for (const message of refused) await assert.rejects(mailer.send(message as never), MailInputError);
    await mailer.send({ ...ok, to: "after-refusals@example.com" });
    await smtp.waitFor("after-refusals@example.com", 10_000);
    assert.equal(smtp.messages.filter((m) => m.envelope.to.includes("victim@example.com")).length, 0);
  } finally {
    mailer.close();
  }
});

test("issue 17 mail: renderLayout makes hostile text safe: line breaks out of the subject, NUL out, huge text cut", () => {
  const huge = "A".repeat(1_000_000);
  const mail = renderLayout("en", {
    heading: `Boom\r\nBcc: victim@example.com\u0000 ${huge}`,
    paragraphs: [`<script>alert(1)</script>\u0000`, huge, ...Array.from({ length: 500 }, (_, i) => `p${i}`)],
    link: { url: "https://faultline.example.com/en", label: '"><img src=x>' },
    footer: { why: "why", stop: "stop" },
  });
  assert.doesNotMatch(mail.subject, /[\r\n\u0000]/);
  assert.ok(mail.subject.length <= 200);
  assert.doesNotMatch(mail.html, /<script>|<img|\u0000/);
  assert.ok(mail.html.length < 300_000 && mail.text.length < 300_000, "cut to the paragraph limits");
  assert.throws(
    () => renderLayout("en", { heading: "h", paragraphs: [], link: { url: "javascript:alert(1)", label: "x" }, footer: { why: "", stop: "" } }),
    TypeError,
  );
});

test("issue 17 mail: without FAULTLINE_SMTP_URL mail is unavailable and sending says so", async () => {
  const mailer = createMailer(loadMailConfig({}));
  assert.equal(mailer.available, false);
  await assert.rejects(mailer.send({ to: "a@example.com", ...layout("en") }), MailUnavailableError);
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: "/tmp/unused", FAULTLINE_SECRET_KEY: "x".repeat(32) }).mail, null);
});

test("issue 17 mail: the configuration is checked, and the SMTP password never shows in it or in errors", async () => {
  assert.throws(() => loadMailConfig({ FAULTLINE_SMTP_URL: "smtp://u:p@mail.example.com" }), ConfigError, "a sender is required");
  assert.throws(() => loadMailConfig({ FAULTLINE_SMTP_URL: "http://mail.example.com", FAULTLINE_MAIL_FROM: FROM }), ConfigError);
  assert.throws(
    () => loadMailConfig({ FAULTLINE_SMTP_URL: "smtp://u:p@mail.example.com", FAULTLINE_MAIL_FROM: "a@example.com\r\nBcc: x@example.com" }),
    ConfigError,
  );
  assert.throws(() => loadMailConfig({ FAULTLINE_SMTP_URL: "smtp://u:p@mail.example.com", FAULTLINE_MAIL_FROM: "not an address" }), ConfigError);
  try {
    loadMailConfig({ FAULTLINE_SMTP_URL: "smtp://user:hunter2-secret@mail.example.com:99999", FAULTLINE_MAIL_FROM: FROM });
    assert.fail("a port beyond 65535 is refused");
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    assert.doesNotMatch(err.message, /hunter2/);
  }
  const smtps = loadMailConfig({ FAULTLINE_SMTP_URL: "smtps://me%40example.com:p%3Ass@mail.example.com", FAULTLINE_MAIL_FROM: "alerts@example.com" });
  assert.ok(smtps);
  assert.deepEqual(
    { host: smtps.host, port: smtps.port, secure: smtps.secure, user: smtps.user, password: smtps.password() },
    { host: "mail.example.com", port: 465, secure: true, user: "me@example.com", password: "p:ss" },
  );
  const plain = loadMailConfig({ FAULTLINE_SMTP_URL: "smtp://user:hunter2-secret@mail.example.com", FAULTLINE_MAIL_FROM: FROM });
  assert.equal(plain?.port, 587);
  assert.doesNotMatch(JSON.stringify(plain) + inspect(plain, { depth: 5 }), /hunter2/);
  const mailer = createMailer(plain);
  assert.doesNotMatch(JSON.stringify(mailer.describe), /hunter2/);
  mailer.close();

  const wrong = mailerFor(`smtp://${smtp.user}:wrong-password-xyz@127.0.0.1:${smtp.port}`);
  try {
    const err = await wrong.send({ to: "a@example.com", ...layout("en") }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof MailSendError);
    assert.equal(err.code, "EAUTH");
    assert.equal(err.responseCode, 535);
    assert.doesNotMatch(err.message, /wrong-password-xyz/);
  } finally {
    wrong.close();
  }
});

test(
  "issue 17 mail: smtp:// upgrades with STARTTLS when the server offers it",
  { skip: hasOpenssl() ? false : "openssl is not installed: no certificate for STARTTLS" },
  async () => {
    const secure = await startSmtp({ tls: true });
    const mailer = mailerFor(secure.url, secure.ca);
    try {
      await mailer.send({ to: "tls@example.com", ...layout("en") });
      const mail = await secure.waitFor("tls@example.com", 10_000);
      assert.equal(mail.secure, true);
      assert.equal(mail.user, secure.user);
    } finally {
      mailer.close();
      await secure.close();
    }
  },
);
