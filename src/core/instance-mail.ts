// Instance settings, e-mail: a superuser sees how outgoing mail is set up (server and sender, never the password) and
// sends a test e-mail to see the SMTP server's answer. Anyone else is refused before any input is read.
import { z } from "zod";
import { type Site, testMail } from "../mail/account-mail";
import type { AvailableMailer, Mailer } from "../mail/mailer";
import { actingUser, type CoreContext } from "./context";
import { forbidden } from "./errors";
import { emailSchema, parseInput } from "./schemas";

function requireSuperuser(ctx: CoreContext): void {
  if (!actingUser(ctx).isSuperuser) throw forbidden("Only superusers can see the instance settings");
}

/** The configuration as shown: null when mail is not set up. */
export function mailSettings(ctx: CoreContext, mailer: Mailer): AvailableMailer["describe"] | null {
  requireSuperuser(ctx);
  return mailer.describe;
}

/** The SMTP server's answer, or why sending failed (a message without secrets). */
export type TestMailOutcome = { status: "sent"; response: string; messageId: string } | { status: "failed"; error: string } | { status: "unavailable" };

const testSchema = z.object({ to: emailSchema });

/** Sends the test e-mail in `locale` to the address given. */
export async function sendTestMail(ctx: CoreContext, mailer: Mailer, site: Site, locale: string, input: unknown): Promise<TestMailOutcome> {
  requireSuperuser(ctx);
  const { to } = parseInput(testSchema, input);
  if (!mailer.available) return { status: "unavailable" };
  const sender = actingUser(ctx);
  try {
    const sent = await mailer.send({ to, ...testMail(locale, site, { email: to, sender: sender.name || sender.email }) });
    return { status: "sent", response: sent.response, messageId: sent.messageId };
  } catch (err) {
    return { status: "failed", error: err instanceof Error ? err.message : "Sending failed" };
  }
}
