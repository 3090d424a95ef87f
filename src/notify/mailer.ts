// The one seam between the sender and outgoing mail. The sender needs only this: whether mail is configured, and a
// way to hand one message to the SMTP server and hear its reply code. `smtpMailer` implements it with nodemailer from
// FAULTLINE_SMTP_URL and FAULTLINE_MAIL_FROM; the mail module (src/mail/) can take its place wholesale.
import nodemailer from "nodemailer";
import { NOTIFICATION_LIMITS } from "../config/limits";

export type MailMessage = { to: string; subject: string; text: string; html: string; headers?: Record<string, string> };

/** The SMTP server's final reply: its code (250 when accepted) and text. */
export type MailReceipt = { code: number; response: string };

export type NotificationMailer = {
  available: boolean;
  /** Throws MailError when the server refused the message or could not be reached. */
  send(message: MailMessage): Promise<MailReceipt>;
};

/** A refused or failed send; `code` is the SMTP reply code when the server gave one (5xx: refused for good). */
export class MailError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
    this.name = "MailError";
  }
}

export const UNAVAILABLE_MAILER: NotificationMailer = {
  available: false,
  send: async () => {
    throw new MailError("e-mail is not configured (FAULTLINE_SMTP_URL and FAULTLINE_MAIL_FROM)", null);
  },
};

const replyCode = (response: string | undefined): number => Number(/^(\d{3})/.exec(response ?? "")?.[1] ?? 0);

/** A mailer over nodemailer's SMTP transport (STARTTLS when the server offers it; `smtps://` for TLS at once). */
export function smtpMailer(smtpUrl: string | undefined, from: string | undefined): NotificationMailer {
  if (!smtpUrl || !from) return UNAVAILABLE_MAILER;
  const limit = NOTIFICATION_LIMITS.smtpTimeoutMs;
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: limit, greetingTimeout: limit, socketTimeout: limit }, { from });
  return {
    available: true,
    async send(message) {
      try {
        const info = await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text, html: message.html, headers: message.headers });
        return { code: replyCode(info.response) || 250, response: String(info.response ?? "").slice(0, NOTIFICATION_LIMITS.responseExcerptBytes) };
      } catch (err) {
        const e = err as { responseCode?: number; response?: string; message?: string };
        // nodemailer's messages name the server and the reply, never the URL's password.
        throw new MailError(String(e.response ?? e.message ?? err).slice(0, NOTIFICATION_LIMITS.errorMaxChars), typeof e.responseCode === "number" ? e.responseCode : null);
      }
    },
  };
}

/** The mailer of this process's configuration. */
export const mailerFromEnv = (): NotificationMailer => smtpMailer(process.env.FAULTLINE_SMTP_URL || undefined, process.env.FAULTLINE_MAIL_FROM || undefined);
