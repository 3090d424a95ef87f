// The dashboard's locales and the cookie that remembers a person's choice: plain values, so that client code (the
// language switcher) reads them without loading next-intl (routing.ts builds next-intl's routing from them).
export const LOCALES = ["en", "de"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** NEXT_LOCALE, as next-intl names it: sent with every request, read by the middleware's locale detection. */
export const LOCALE_COOKIE = { name: "NEXT_LOCALE", sameSite: "lax", maxAge: 365 * 24 * 3600 } as const;

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}
