// Locales of the dashboard. Every route is prefixed (/en/…, /de/…); "/" redirects by cookie, then Accept-Language.
import { defineRouting } from "next-intl/routing";
import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALES } from "./locales";

export { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "./locales";

export const routing = defineRouting({
  locales: LOCALES,
  defaultLocale: DEFAULT_LOCALE,
  localePrefix: "always",
  localeCookie: LOCALE_COOKIE,
});
