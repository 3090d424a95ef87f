// Numbers and dates as the dashboard shows them, in the page's language, on the server and in the browser alike.
// Times are UTC (and say so), so a server render and a reader in any timezone agree. Formatters are made once per
// locale and kind: constructing an Intl formatter costs tens of microseconds, and a stream page formats hundreds of
// values (it was a fifth of the page's server time).
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function formatter<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let f = formatters.get(key) as T | undefined;
  if (!f) {
    // Locales come from the route, checked against the few Faultline speaks; the bound only guards against a bug.
    if (formatters.size > 64) formatters.clear();
    f = make();
    formatters.set(key, f);
  }
  return f;
}

const dateTime = (locale: string) => formatter(`date ${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }));

/** A date and time with " UTC", or a dash for none or an unreadable one. */
export function formatDate(locale: string, iso: string | null): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : `${dateTime(locale).format(d)} UTC`;
}

/** A date and time in UTC without the zone, where a column heading says it (the issue stream). */
export function formatWhen(locale: string, iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : dateTime(locale).format(d);
}

/** A percentage (0–100) with at most one decimal, or a dash when there is nothing to measure. */
export function formatPercent(locale: string, value: number | null): string {
  if (value === null) return "—";
  return formatter(`percent ${locale}`, () => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 })).format(Math.floor(value * 10) / 1000);
}

export const formatCount = (locale: string, n: number) => formatter(`count ${locale}`, () => new Intl.NumberFormat(locale)).format(n);

/** A count, shortened from 100,000 on ("123K"), for narrow columns. */
export const formatCompactCount = (locale: string, n: number) =>
  n >= 100_000 ? formatter(`compact ${locale}`, () => new Intl.NumberFormat(locale, { notation: "compact" })).format(n) : formatCount(locale, n);

/** A size in bytes, in B, kB or MB (1000-based, as browsers and Next.js print sizes). */
export function formatBytes(locale: string, bytes: number): string {
  const [value, unit] = bytes < 1000 ? [bytes, "byte"] : bytes < 1_000_000 ? [bytes / 1000, "kilobyte"] : [bytes / 1_000_000, "megabyte"];
  // "narrow" for bytes: "14B" rather than "14 byte".
  const display = unit === "byte" ? "narrow" : "short";
  return formatter(`${unit} ${locale}`, () => new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: display, maximumFractionDigits: 1 })).format(value);
}
