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

const dateTime = (locale: string) =>
  formatter(`date ${locale}`, () => new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }));

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
  return formatter(`percent ${locale}`, () => new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 })).format(
    Math.floor(value * 10) / 1000,
  );
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
  return formatter(`${unit} ${locale}`, () => new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: display, maximumFractionDigits: 1 })).format(
    value,
  );
}

/** A number formatter with these options, made once per locale and options. */
const numberFormat = (locale: string, name: string, options: Intl.NumberFormatOptions) =>
  formatter(`${name} ${locale}`, () => new Intl.NumberFormat(locale, options));

/** A duration in ms, or in s from one second on: "8.5 ms", "128 ms", "1.05 s"; a dash for none. */
export function formatMs(locale: string, ms: number | null): string {
  if (ms === null) return "—";
  if (ms >= 1000) return `${numberFormat(locale, "seconds", { maximumFractionDigits: 2 }).format(ms / 1000)} s`;
  return ms < 10
    ? `${numberFormat(locale, "ms-small", { maximumFractionDigits: 1 }).format(ms)} ms`
    : `${numberFormat(locale, "ms", { maximumFractionDigits: 0 }).format(ms)} ms`;
}

/** A ratio (0–1) as a percentage with one decimal ("1.9%"), or none; a dash for none. */
export const formatRatio = (locale: string, r: number | null, digits: 0 | 1 = 1) =>
  r === null ? "—" : numberFormat(locale, `ratio${digits}`, { style: "percent", maximumFractionDigits: digits }).format(r);

/** A score or index with at most two (or three: a CLS) decimals ("0.89"); a dash for none. */
export const formatDecimal = (locale: string, n: number | null, digits: 2 | 3 = 2) =>
  n === null ? "—" : numberFormat(locale, `decimal${digits}`, { maximumFractionDigits: digits }).format(n);

/** A rate such as transactions per minute: two significant digits below 1 (0.0069), so a quiet route is not "0". */
export const formatRate = (locale: string, n: number) =>
  n > 0 && n < 1
    ? numberFormat(locale, "rate-small", { maximumSignificantDigits: 2 }).format(n)
    : numberFormat(locale, "rate", { maximumFractionDigits: 1 }).format(n);

/** A relative change (0.12 for +12%) as a signed whole percentage: "+12%", "-5%", "0%". */
export const formatChange = (locale: string, change: number) =>
  numberFormat(locale, "change", { style: "percent", maximumFractionDigits: 0, signDisplay: "exceptZero" }).format(change);
