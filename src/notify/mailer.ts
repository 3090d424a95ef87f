// The one seam between the sender and outgoing mail. The sender needs only this: whether mail is configured, and a
// way to hand one message to the SMTP server and hear its reply code. `notificationMailer` adapts the mail module's
// mailer (src/mail/: FAULTLINE_SMTP_URL, FAULTLINE_MAIL_FROM, the checks every message passes) to it.
import { NOTIFICATION_LIMITS } from "../config/limits";
import { getMailer, type Mailer, MailInputError, MailSendError } from "../mail";

export type MailMessage = { to: string; subject: string; text: string; html: string; headers?: Record<string, string>; messageId?: string };

/** The SMTP server's final reply: its code (250 when accepted) and text. */
export type MailReceipt = { code: number; response: string };

export type NotificationMailer = {
  available: boolean;
  /** Throws MailError when the server refused the message or could not be reached. */
  send(message: MailMessage): Promise<MailReceipt>;
};

/** A refused or failed send; `code` is the SMTP reply code when the server gave one (5xx: refused for good). */
export class MailError extends Error {
  /** Whether trying again cannot help: the server refused for good (5xx), or the message cannot be written. */
  readonly permanent: boolean;
  constructor(
    message: string,
    readonly code: number | null,
    permanent?: boolean,
  ) {
    super(message);
    this.name = "MailError";
    this.permanent = permanent ?? (code !== null && code >= 500);
  }
}

export const UNAVAILABLE_MAILER: NotificationMailer = {
  available: false,
  send: async () => {
    throw new MailError("e-mail is not configured (FAULTLINE_SMTP_URL and FAULTLINE_MAIL_FROM)", null);
  },
};

/**
 * The sender's view of the mail module's mailer (src/mail/): the server's reply code and text on success; on failure a
 * MailError with the server's code when it answered. A message the mail module refuses before sending (an address or
 * header it will not write) fails for good, as a 5xx does; anything else may pass later.
 */
export function notificationMailer(mailer: Mailer): NotificationMailer {
  if (!mailer.available) return UNAVAILABLE_MAILER;
  return {
    available: true,
    async send(message) {
      try {
        const sent = await mailer.send(message);
        return { code: sent.code ?? 250, response: sent.response.slice(0, NOTIFICATION_LIMITS.responseExcerptBytes) };
      } catch (err) {
        const cut = (m: string) => m.slice(0, NOTIFICATION_LIMITS.errorMaxChars);
        if (err instanceof MailSendError) throw new MailError(cut(err.message), err.responseCode ?? null);
        if (err instanceof MailInputError) throw new MailError(cut(err.message), null, true);
        throw err;
      }
    },
  };
}

/** The mailer of this process's configuration (FAULTLINE_SMTP_URL, FAULTLINE_MAIL_FROM). */
export const mailerFromEnv = (): NotificationMailer => notificationMailer(getMailer());
