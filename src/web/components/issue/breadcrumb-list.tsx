"use client";
// The breadcrumbs' timeline. A client component for the size of the page, as the stream's rows are
// (issue-stream/issue-rows.tsx): it travels in the RSC payload as the breadcrumbs' data rather than as their element
// tree. It formats nothing that could differ between server and browser (the time is the timestamp's UTC clock).
import type { Breadcrumb } from "./event-view";

const clock = (iso: string | null) => (iso ? iso.slice(11, 23) : "");

export function BreadcrumbList({ breadcrumbs }: { breadcrumbs: Breadcrumb[] }) {
  return (
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
  );
}
