// Durations, rates and their change against the previous period, as the performance tables show them.

export function formatMs(locale: string, ms: number | null): string {
  if (ms === null) return "—";
  if (ms >= 1000) return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(ms / 1000)} s`;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: ms < 10 ? 1 : 0 }).format(ms)} ms`;
}

export const formatRatio = (locale: string, r: number | null, digits = 1) => (r === null ? "—" : new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: digits }).format(r));

export const formatNumber = (locale: string, n: number | null, digits = 2) => (n === null ? "—" : new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(n));

/** A rate such as transactions per minute: two significant digits below 1 (0.0069), so a quiet route is not "0". */
export const formatRate = (locale: string, n: number) => new Intl.NumberFormat(locale, n > 0 && n < 1 ? { maximumSignificantDigits: 2 } : { maximumFractionDigits: 1 }).format(n);

/**
 * The change from the previous period, as text a screen reader reads too: "+12%" or "−5%"; `worseWhenUp` marks the
 * direction that is bad (durations and failures up, throughput is neither). Synchronous, with its labels given: a
 * table has several per row.
 */
export function Trend({ locale, current, previous, worseWhenUp, labels }: { locale: string; current: number | null; previous: number | null; worseWhenUp?: boolean; labels: { none: string; title: string } }) {
  if (current === null || previous === null || previous === 0) return <span className="trend muted">{labels.none}</span>;
  const change = (current - previous) / previous;
  const text = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 0, signDisplay: "exceptZero" }).format(change);
  const tone = worseWhenUp === undefined || Math.abs(change) < 0.05 ? "" : change > 0 === worseWhenUp ? " trend-worse" : " trend-better";
  return (
    <span className={`trend${tone}`} title={labels.title}>
      {text}
    </span>
  );
}
