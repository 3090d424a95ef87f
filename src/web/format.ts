// Numbers and dates as the dashboard shows them, in the page's language. Times are UTC (and say so), so a server
// render and a reader in any timezone agree.
const dates = new Map<string, Intl.DateTimeFormat>();

export function formatDate(locale: string, iso: string | null): string {
  if (!iso) return "—";
  let f = dates.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
    dates.set(locale, f);
  }
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "—" : `${f.format(d)} UTC`;
}

/** A percentage (0–100) with at most one decimal, or a dash when there is nothing to measure. */
export function formatPercent(locale: string, value: number | null): string {
  if (value === null) return "—";
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 }).format(Math.floor(value * 10) / 1000);
}

export const formatCount = (locale: string, n: number) => n.toLocaleString(locale);
