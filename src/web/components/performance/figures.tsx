// The change of a figure against the previous period, as the performance tables show it (the figures themselves
// are formatted by web/format.ts).
import { formatChange } from "@/web/format";

/**
 * The change from the previous period, as text a screen reader reads too: "+12%" or "−5%"; `worseWhenUp` marks the
 * direction that is bad (durations and failures up, throughput is neither). The table's caption says what the small
 * figures are, so each carries no title of its own. Synchronous, with its labels given: a table has several per row.
 */
export function Trend({
  locale,
  current,
  previous,
  worseWhenUp,
  labels,
}: {
  locale: string;
  current: number | null;
  previous: number | null;
  worseWhenUp?: boolean;
  labels: { none: string };
}) {
  if (current === null || previous === null || previous === 0) return <span className="trend muted">{labels.none}</span>;
  const change = (current - previous) / previous;
  const text = formatChange(locale, change);
  const tone = worseWhenUp === undefined || Math.abs(change) < 0.05 ? "" : change > 0 === worseWhenUp ? " trend-worse" : " trend-better";
  return <span className={`trend${tone}`}>{text}</span>;
}
