// Outgoing mail: the process-wide mailer, and what other parts of Faultline use to write and send mail.
//   getMailer(): the mailer of this process (FAULTLINE_SMTP_URL / FAULTLINE_MAIL_FROM); `available` false without them.
//   createMailer(config): a mailer for a given MailConfig (tests, tools).
//   renderLayout(locale, {...}) and appUrl(publicUrl, basePath, path): see layout.ts.
import { loadMailConfig, type MailConfig } from "../config/env";
import { createMailer, type Mailer } from "./mailer";

export { appUrl, type LayoutInput, type MailLink, type RenderedMail, renderLayout } from "./layout";
export { createMailer, type Mailer, MailInputError, type MailMessage, MailSendError, MailUnavailableError, type SendResult } from "./mailer";
export { type MailLocale, mailLocale, mailTranslator } from "./messages";

// On globalThis: the custom server and Next's server bundle each load their own copy of this module, and they share one
// connection pool.
const KEY = Symbol.for("faultline.mailer");
type Holder = { [KEY]?: Mailer };

/**
 * The process's mailer, made once: from `config` when given (the server passes its validated configuration), else
 * from the environment (the delivery worker). Throws ConfigError for a malformed FAULTLINE_SMTP_URL / FAULTLINE_MAIL_FROM.
 */
export function getMailer(config?: MailConfig | null): Mailer {
  const holder = globalThis as Holder;
  holder[KEY] ??= createMailer(config === undefined ? loadMailConfig() : config);
  return holder[KEY];
}
