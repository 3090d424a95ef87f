// Locales of the dashboard. Every route is prefixed (/en/…, /de/…); "/" redirects by cookie, then Accept-Language.
import { defineRouting } from "next-intl/routing";

export const LOCALES = ["en", "de"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

export const routing = defineRouting({
  locales: LOCALES,
  defaultLocale: DEFAULT_LOCALE,
  localePrefix: "always",
  localeCookie: { name: "NEXT_LOCALE", sameSite: "lax", maxAge: 365 * 24 * 3600 },
});

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}
