// A row of an environment's latest check-ins, oldest to newest, one coloured mark each (ok, error, missed, timeout,
// in progress), drawn as one image: its accessible name counts the check-ins by status and names the latest one, and
// each mark's title gives its status and time to pointers. Every byte here is sent twice (in the HTML and in the React
// payload), up to 48 marks per environment on the monitors list: a list item with hidden text per mark made a list of
// 60 monitors an 818 kB page.
import type { CheckIn } from "@/storage/monitor-ports";
import { formatWhen } from "@/web/format";

export function CheckInTimeline({
  locale,
  checkIns,
  statusLabel,
  label,
  latestLabel,
}: {
  locale: string;
  /** Newest first, as the store lists them. */
  checkIns: CheckIn[];
  statusLabel: (status: string) => string;
  label: string;
  /** "latest: …", given the latest check-in's status and time. */
  latestLabel: (checkIn: string) => string;
}) {
  const ordered = [...checkIns].reverse();
  const describe = (c: CheckIn) => `${statusLabel(c.status)}, ${formatWhen(locale, c.dateAdded)}`;
  const counts = new Map<string, number>();
  for (const c of ordered) counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
  const latest = checkIns[0];
  const summary = [label, [...counts].map(([status, n]) => `${statusLabel(status)} ${n}`).join(", "), latest ? latestLabel(describe(latest)) : ""]
    .filter(Boolean)
    .join("; ");
  return (
    <div className="checkin-timeline" role="img" aria-label={summary} data-testid="checkin-timeline">
      {ordered.map((c, i) => (
        <i key={i} className={`checkin-${c.status}`} title={describe(c)} />
      ))}
    </div>
  );
}
