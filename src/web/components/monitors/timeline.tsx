// A row of an environment's latest check-ins, oldest to newest, one coloured mark each (ok, error, missed, timeout,
// in progress); each mark's title and hidden text name its status and time, for pointers and screen readers.
import type { CheckIn } from "@/storage/monitor-ports";
import { formatWhen } from "@/web/format";

export function CheckInTimeline({
  locale,
  checkIns,
  statusLabel,
  label,
}: {
  locale: string;
  checkIns: CheckIn[];
  statusLabel: (status: string) => string;
  label: string;
}) {
  const ordered = [...checkIns].reverse();
  return (
    <ol className="checkin-timeline" aria-label={label} data-testid="checkin-timeline">
      {ordered.map((c) => {
        const text = `${statusLabel(c.status)}, ${formatWhen(locale, c.dateAdded)}`;
        return (
          <li key={c.id} className={`checkin-mark checkin-${c.status}`} title={text} data-status={c.status}>
            <span className="visually-hidden">{text}</span>
          </li>
        );
      })}
    </ol>
  );
}
