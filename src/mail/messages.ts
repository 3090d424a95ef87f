// The mail's copy in the recipient's language, read from the dashboard's message files (src/i18n/messages) without
// next-intl: mail is rendered outside any request (the delivery worker), and this part of Faultline never imports next.
import de from "../i18n/messages/de.json";
import en from "../i18n/messages/en.json";

/** The languages mail is written in; anything else gets English. */
export const MAIL_LOCALES = ["en", "de"] as const;
export type MailLocale = (typeof MAIL_LOCALES)[number];

export const mailLocale = (locale: unknown): MailLocale => ((MAIL_LOCALES as readonly unknown[]).includes(locale) ? (locale as MailLocale) : "en");

const CATALOGS: Record<MailLocale, unknown> = { en, de };

export type MailTranslate = (key: string, values?: Record<string, string | number>) => string;

/**
 * A translator over the whole catalog: `t("mail.reset.subject")`, `t("roles.admin")`. {name} placeholders are
 * replaced by the values given; a key missing in the language falls back to English, then to the key itself.
 */
export function mailTranslator(locale: unknown): MailTranslate {
  const lang = mailLocale(locale);
  return (key, values = {}) => {
    const found = lookup(CATALOGS[lang], key) ?? lookup(CATALOGS.en, key) ?? key;
    return found.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
  };
}

function lookup(catalog: unknown, key: string): string | undefined {
  let node = catalog;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === "string" ? node : undefined;
}
