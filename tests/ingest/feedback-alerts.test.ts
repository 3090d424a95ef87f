// New user feedback fires alert rules end to end (issue 19), on SQLite and PostgreSQL: the official @sentry/node 11.5.0
// (Sentry.captureFeedback) and Debian's python3-sentry-sdk 1.9.10 (a user_report item) send feedback for an error they
// captured, through the real intake, spool and digest; the sender delivers the rules' notifications to a real HTTP
// receiver (Sentry's legacy webhook body, its signature verified as a Sentry receiver verifies it) and to a real SMTP
// server (smtp-server). A rule filtered to category 6 hears only the feedback, one filtered to 1 only the error.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { loadMailConfig } from "../../src/config/env";
import { EMAIL_ACTION, WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import { FIRST_SEEN, ISSUE_CATEGORY_FILTER, type RuleInput } from "../../src/core/alert-rule-schema";
import { createMailer } from "../../src/mail";
import { notificationMailer } from "../../src/notify/mailer";
import { createSender } from "../../src/notify/sender";
import { senderStore } from "../../src/storage/kysely/notifications";
import type { OpenDbOptions } from "../../src/storage/db";
import { type TestIntake, startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";
import { type TestSmtp, startSmtp } from "../helpers/smtp";
import { type Receiver, receiver } from "../notify/fixtures";

function runSdk(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { timeout: 30_000 }, (err, out, stderr) =>
      err ? reject(new Error(`${file} ${args[0]}: ${stderr || err.message}`)) : resolve(out.trim()),
    ),
  );
}

type Json = Record<string, unknown>;

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`feedback alerts with real SDKs, a webhook receiver and an SMTP server on ${dialect}`, { timeout: 300_000 }, () => {
    let t: TestIntake;
    let hook: Receiver;
    let smtp: TestSmtp;
    let drop: (() => Promise<void>) | undefined;
    const marker = `fa${randomBytes(5).toString("hex")}`;
    before(async () => {
      let db: OpenDbOptions | undefined;
      if (dialect === "postgres") {
        const fresh = await freshPgDatabase(`fb_alerts_e2e_${randomBytes(4).toString("hex")}`);
        drop = fresh.drop;
        db = { dialect: "postgres", url: fresh.url };
      }
      t = await startTestIntake({ db });
      // A port the system picks: fixed ones here (9601) met the bad-input corpus's PostgreSQL server when both ran at once.
      hook = await receiver(0);
      smtp = await startSmtp();
    });
    after(async () => {
      await hook?.close();
      await smtp?.close();
      await t?.close();
      await drop?.();
    });

    test("captureFeedback and a user_report each fire the feedback rule once, by webhook and by e-mail; the errors-only rule hears only the error", async () => {
      const [p, q] = t.projects;
      const store = senderStore({ db: t.core.db.kysely, dialect: t.core.db.dialect });
      await store.setAllowedHostsSetting("127.0.0.1");
      const rule = (name: string, category: "1" | "6", path: string, email: boolean): RuleInput => ({
        name,
        environment: null,
        actionMatch: "all",
        filterMatch: "all",
        frequency: 30,
        conditions: [{ id: FIRST_SEEN }],
        filters: [{ id: ISSUE_CATEGORY_FILTER, value: category }],
        actions: [
          { id: WEBHOOK_ACTION, service: "webhooks", url: hook.url(path) },
          ...(email ? [{ id: EMAIL_ACTION, targetType: "Member", targetIdentifier: t.owner.id } as const] : []),
        ],
        status: "active",
      });
      for (const project of [p, q]) {
        await t.core.store.createAlertRule({ ...rule("Feedback", "6", `/feedback/${project.slug}`, true), projectId: project.id, createdBy: null });
        await t.core.store.createAlertRule({ ...rule("Errors", "1", `/errors/${project.slug}`, false), projectId: project.id, createdBy: null });
      }
      const nodeEvent = await runSdk(process.execPath, ["tests/ingest/sdk/node-feedback.mjs", p.dsn, marker]);
      const pythonEvent = await runSdk("/usr/bin/python3", ["tests/ingest/sdk/python-feedback.py", q.dsn, marker]); // Debian's
      await t.settle();
      const pool = createMailer(loadMailConfig({ FAULTLINE_SMTP_URL: smtp.url, FAULTLINE_MAIL_FROM: "Faultline <alerts@faultline.test>" }));
      after(() => pool.close()); // its pooled connection would hold the SMTP server's close for its closeTimeout
      const sender = createSender({ store, mailer: notificationMailer(pool), log: () => undefined });
      const pending = async () =>
        Number(
          (
            await t.core.db.kysely
              .selectFrom("notifications")
              .select((eb) => eb.fn.countAll().as("n"))
              .where("status", "=", "pending")
              .executeTakeFirstOrThrow()
          ).n,
        );
      // Each pass claims a batch; e-mail actions expand into recipients first, then those are sent.
      for (let i = 0; i < 50 && (await pending()) > 0; i++) await sender.runOnce();
      assert.equal(await pending(), 0, "everything due was delivered");

      const at = (prefix: string) => hook.receipts.filter((r) => r.path.startsWith(prefix));
      assert.equal(at(`/feedback/${p.slug}`).length, 2, "the node SDK's two feedbacks, one notification each");
      assert.equal(at(`/feedback/${q.slug}`).length, 1, "the python SDK's user report");
      assert.equal(at(`/errors/${p.slug}`).length, 1, "the error's new issue, and no feedback");
      assert.equal(at(`/errors/${q.slug}`).length, 1);
      assert.ok(at("/errors/").every((r) => (JSON.parse(r.body.toString("utf8")) as Json).level === "error"));

      const secret = await store.getProjectWebhookSecret(p.id);
      assert.ok(secret, "projects sign their webhooks");
      const bodies = at(`/feedback/${p.slug}`).map((r) => {
        const expected = createHmac("sha256", secret).update(r.body).digest("hex");
        assert.equal(r.headers["sentry-hook-signature"], expected, "signed over the exact body bytes");
        assert.equal(r.headers["sentry-hook-resource"], "event_alert");
        return JSON.parse(r.body.toString("utf8")) as Json;
      });
      const linked = bodies.find((b) => b.message === `${marker} the pay button spins forever`)!;
      assert.ok(linked, "the feedback's text is the message");
      assert.deepEqual(
        [linked.level, linked.project, linked.culprit, linked.triggering_rules],
        ["info", p.slug, "https://shop.example/checkout", ["Feedback"]],
      );
      assert.match(String(linked.url), new RegExp(`/en/orgs/${t.org}/feedback/${String(linked.id)}$`));
      const event = linked.event as Json;
      assert.equal(event.type, "feedback");
      assert.deepEqual([event.environment, event.release], ["sdk-test", "feedback-node@1.0"]);
      const context = (event.contexts as Json).feedback as Json;
      assert.deepEqual([context.name, context.contact_email, context.associated_event_id], ["Jane Node", "jane@example.com", nodeEvent]);
      const issue = linked.linked_issue as Json;
      assert.ok(String(issue.title).includes(`${marker} checkout failed`), "the associated event's issue");
      const loose = bodies.find((b) => b.message === `${marker} love the new layout`)!;
      assert.equal(loose.linked_issue, null);

      const report = JSON.parse(at(`/feedback/${q.slug}`)[0]!.body.toString("utf8")) as Json;
      assert.equal(report.message, `${marker} the PDF is empty`);
      const reportContext = ((report.event as Json).contexts as Json).feedback as Json;
      assert.deepEqual([reportContext.source, reportContext.name, reportContext.associated_event_id], ["user_report", "Pat Python", pythonEvent]);

      const mails = [];
      for (let i = 0; i < 3; i++) mails.push(await smtp.waitFor(t.owner.email, 30_000));
      const mail = mails.find((m) => m.subject.includes(`${marker} the pay button spins forever`))!;
      assert.ok(mail, `subjects: ${mails.map((m) => m.subject).join(" | ")}`);
      assert.match(mail.subject, /^\[[^\]]+\] New user feedback: /);
      assert.ok(mail.text.includes("From: Jane Node <jane@example.com>"), "members get the contact e-mail, to answer the person");
      assert.ok(mail.text.includes(String(linked.url)), "the link to the feedback in the inbox");
      assert.match(mail.text, /You got this e-mail because an alert rule of this project notifies you\./);
      assert.ok(mail.html.includes(`href="${String(linked.url)}"`));
      assert.ok(mails.some((m) => m.subject.includes(`${marker} the PDF is empty`)));
    });
  });
}
