// The mail Faultline's accounts need: a password-reset link, an invitation, and the instance settings' test e-mail.
// Each is renderLayout with its copy from the "mail" namespace, in the recipient's language.
import { DASHBOARD_LIMITS } from "../config/limits";
import { appUrl, type RenderedMail, renderLayout } from "./layout";
import { mailLocale, mailTranslator } from "./messages";
import type { Mailer } from "./mailer";

/** Where the links point: FAULTLINE_URL (publicUrl) and the base path. */
export type Site = { publicUrl: string; basePath: string };

const siteName = (site: Site) => appUrl(site.publicUrl, site.basePath, "/").replace(/\/$/, "");

export function passwordResetMail(locale: string, site: Site, { email, token }: { email: string; token: string }): RenderedMail {
  const lang = mailLocale(locale);
  const t = mailTranslator(lang);
  return renderLayout(lang, {
    subject: t("mail.reset.subject"),
    heading: t("mail.reset.heading"),
    paragraphs: [t("mail.reset.body", { email }), t("mail.reset.ignore")],
    link: { url: appUrl(site.publicUrl, site.basePath, `/${lang}/reset-password?token=${encodeURIComponent(token)}`), label: t("mail.reset.action") },
    footer: { why: t("mail.reset.why", { email, site: siteName(site) }), stop: t("mail.reset.stop") },
  });
}

export type InvitationMailInput = { email: string; org: string; role: string; inviter: string; link: string };

export function invitationMail(locale: string, site: Site, i: InvitationMailInput): RenderedMail {
  const lang = mailLocale(locale);
  const t = mailTranslator(lang);
  const role = t(`roles.${i.role}`);
  return renderLayout(lang, {
    subject: t("mail.invitation.subject", { inviter: i.inviter, org: i.org }),
    heading: t("mail.invitation.heading", { org: i.org }),
    paragraphs: [
      t("mail.invitation.body", { inviter: i.inviter, org: i.org, role }),
      t("mail.invitation.expires", { email: i.email, days: DASHBOARD_LIMITS.invitationDays }),
    ],
    link: { url: i.link, label: t("mail.invitation.action") },
    footer: { why: t("mail.invitation.why", { inviter: i.inviter, email: i.email, site: siteName(site) }), stop: t("mail.invitation.stop") },
  });
}

export function testMail(locale: string, site: Site, { email, sender }: { email: string; sender: string }): RenderedMail {
  const lang = mailLocale(locale);
  const t = mailTranslator(lang);
  return renderLayout(lang, {
    subject: t("mail.test.subject"),
    heading: t("mail.test.heading"),
    paragraphs: [t("mail.test.body", { sender, site: siteName(site) })],
    link: { url: appUrl(site.publicUrl, site.basePath, `/${lang}`), label: t("mail.test.action") },
    footer: { why: t("mail.test.why", { email }), stop: t("mail.test.stop") },
  });
}

/** What better-auth's sendResetPassword hands over (src/auth/create-auth.ts). */
export type PasswordResetRequest = { email: string; token: string; locale: string };

/**
 * The password-reset sender for createAuth: sends the link in the background, so that the answer to "forgot password"
 * takes as long whether the address has an account or not, and a failing SMTP server shows in the log, never in the
 * answer. Without mail, nothing is sent (the forgot-password page says mail is unavailable).
 */
export function passwordResetSender(mailer: Mailer, site: Site, log: (line: string) => void = console.error): (request: PasswordResetRequest) => void {
  return ({ email, token, locale }) => {
    if (!mailer.available) return;
    mailer.send({ to: email, ...passwordResetMail(locale, site, { email, token }) }).catch((err: unknown) => {
      log(`faultline: a password-reset e-mail could not be sent: ${(err as Error)?.message ?? String(err)}`);
    });
  };
}
