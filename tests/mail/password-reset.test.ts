// Password reset end to end through better-auth's real HTTP handler on a real database, with the link mailed to a
// real SMTP server: the mail in the asker's language, the link valid for an hour and once, the same answer for an
// address without an account, and the rate limit.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { betterAuthAccounts } from "../../src/auth/accounts";
import { authPath, CLIENT_IP_HEADER, createAuth } from "../../src/auth/create-auth";
import { loadMailConfig } from "../../src/config/env";
import { passwordResetSender } from "../../src/mail/account-mail";
import { createMailer, type Mailer } from "../../src/mail/mailer";
import { type Db, openDb } from "../../src/storage/db";
import { createStore } from "../../src/storage/kysely";
import { migrateToLatest } from "../../src/storage/migrate";
import { freshPgDatabase } from "../helpers/pg";
import { startSmtp, type TestSmtp } from "../helpers/smtp";

const publicUrl = "http://localhost:9000";
const basePath = "/monitor";
for (const dialect of ["sqlite", "postgres"] as const)
  describe(`on ${dialect}`, () => {
    let smtp: TestSmtp;
    let mailer: Mailer;
    let db: Db;
    let auth: ReturnType<typeof createAuth>;
    let drop = async () => {};

    before(async () => {
      smtp = await startSmtp();
      mailer = createMailer(loadMailConfig({ FAULTLINE_SMTP_URL: smtp.url, FAULTLINE_MAIL_FROM: "faultline@example.com" }));
      if (dialect === "postgres") {
        const pg = await freshPgDatabase(`faultline_mail_reset_${process.pid}`);
        drop = pg.drop;
        db = openDb({ dialect: "postgres", url: pg.url });
      } else {
        db = openDb({ dialect: "sqlite", file: ":memory:" });
      }
      await migrateToLatest(db);
      auth = createAuth({
        db,
        secret: "a-test-secret-that-is-long-enough-000",
        publicUrl,
        basePath,
        sendPasswordReset: passwordResetSender(mailer, { publicUrl, basePath }),
      });
      await betterAuthAccounts(auth, createStore(db)).createUser({ email: "lost@example.com", password: "old-password-1", name: "Lost" });
    });
    after(async () => {
      mailer.close();
      await smtp.close();
      await db.close();
      await drop();
    });

    let ip = 0;
    async function call(
      endpoint: string,
      body: unknown,
      from = `192.0.2.${++ip}`,
    ): Promise<{ status: number; json: Record<string, unknown> | null; cookie: string }> {
      const res = await auth.handler(
        new Request(`${publicUrl}${authPath(basePath)}${endpoint}`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: publicUrl, [CLIENT_IP_HEADER]: from },
          body: JSON.stringify(body),
        }),
      );
      const text = await res.text();
      return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null, cookie: res.headers.get("set-cookie") ?? "" };
    }

    test("issue 17 mail: a password reset mails a German link that works once, within an hour, and signs other sessions out", async () => {
      const session = await call("/sign-in/email", { email: "lost@example.com", password: "old-password-1" });
      assert.equal(session.status, 200);
      const asked = await call("/request-password-reset", { email: "lost@example.com", redirectTo: `${basePath}/de/reset-password` });
      assert.equal(asked.status, 200);

      const mail = await smtp.waitFor("lost@example.com", 10_000);
      assert.equal(mail.subject, "Dein Faultline-Passwort zurücksetzen");
      assert.match(mail.html, /<html lang="de">/);
      const link = /http:\/\/localhost:9000\/monitor\/de\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
      assert.ok(link, `the text part has the link: ${mail.text}`);
      assert.ok(mail.html.includes(`href="${link[0]}"`), "the HTML part has the same link");
      assert.match(mail.text, /eine Stunde/);
      assert.match(
        mail.text,
        /Du bekommst diese E-Mail, weil auf http:\/\/localhost:9000\/monitor ein neues Passwort für lost@example\.com angefordert wurde\./,
      );

      const row = await db.kysely
        .selectFrom("verifications")
        .select(["expires_at"])
        .where("identifier", "=", `reset-password:${link[1]}`)
        .executeTakeFirstOrThrow();
      const lifetime = (new Date(row.expires_at as unknown as string | Date).getTime() - Date.now()) / 1000;
      assert.ok(lifetime > 3000 && lifetime <= 3600, `the link is valid for an hour (${lifetime} s left)`);

      assert.equal((await call("/reset-password", { token: link[1], newPassword: "brand-new-password-2" })).status, 200);
      assert.equal((await call("/sign-in/email", { email: "lost@example.com", password: "brand-new-password-2" })).status, 200);
      assert.equal((await call("/sign-in/email", { email: "lost@example.com", password: "old-password-1" })).status, 401);
      const again = await call("/reset-password", { token: link[1], newPassword: "third-password-3" });
      assert.equal(again.status, 400, "the link works once");
      const sessions = await db.kysely.selectFrom("sessions").select("token").execute();
      assert.ok(!sessions.some((s) => session.cookie.includes(s.token)), "the session from before the reset is gone");
    });

    test("issue 17 mail: asking for a reset of an address without an account answers the same and sends nothing", async () => {
      const unknown = await call("/request-password-reset", { email: "nobody@example.com", redirectTo: `${basePath}/en/reset-password` });
      const known = await call("/request-password-reset", { email: "lost@example.com", redirectTo: `${basePath}/en/reset-password` });
      assert.equal(unknown.status, known.status);
      assert.deepEqual(unknown.json, known.json);
      const mail = await smtp.waitFor("lost@example.com", 10_000);
      assert.equal(mail.subject, "Reset your Faultline password");
      assert.equal(smtp.messages.filter((m) => m.envelope.to.includes("nobody@example.com")).length, 0);
    });

    test("issue 17 mail: password-reset requests are rate-limited per client address", async () => {
      const from = "198.51.100.7";
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await call("/request-password-reset", { email: "nobody@example.com" }, from)).status);
      assert.deepEqual(statuses, [200, 200, 200, 429]);
    });

    test("issue 17 mail: a reset link with a foreign redirect is refused, and a made-up token changes nothing", async () => {
      assert.equal((await call("/request-password-reset", { email: "lost@example.com", redirectTo: "https://evil.example.net/steal" })).status, 403);
      assert.equal((await call("/reset-password", { token: "not-a-real-token", newPassword: "whatever-password" })).status, 400);
      assert.equal((await call("/reset-password", { token: "\u0000".repeat(10_000), newPassword: "whatever-password" })).status, 400);
    });
  });
