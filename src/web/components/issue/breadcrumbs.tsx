// What happened before the event, as a timeline: time (UTC), category, level, message and data.
import { getTranslations } from "next-intl/server";
import type { Breadcrumb } from "./event-view";

const clock = (iso: string | null) => (iso ? iso.slice(11, 23) : "");

export async function Breadcrumbs({ breadcrumbs }: { breadcrumbs: Breadcrumb[] }) {
  const t = await getTranslations("issueDetail.breadcrumbs");
  return (
    <section className="card" aria-labelledby="breadcrumbs-title" data-testid="breadcrumbs">
      <h2 id="breadcrumbs-title">{t("title")}</h2>
      <ol className="timeline">
        {breadcrumbs.map((b, i) => (
          <li key={i} className="timeline-item" data-level={b.level}>
            <time dateTime={b.timestamp ?? undefined} className="muted timeline-time">
              {clock(b.timestamp)}
            </time>
            <span className="timeline-body">
              <strong>{b.category ?? b.type}</strong> <span className="badge">{b.level}</span>
              {b.message ? <span className="timeline-message"> {b.message}</span> : null}
              {b.data && Object.keys(b.data).length > 0 ? <code className="timeline-data">{JSON.stringify(b.data)}</code> : null}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
