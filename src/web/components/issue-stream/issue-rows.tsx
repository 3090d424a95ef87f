"use client";
// The stream's table, rendered from rows the server has already formatted (issue-table.tsx). A client component on
// purpose: a server component's output reaches the browser twice, as HTML and again as the element tree of the RSC
// payload, and for 25 rows that tree was 50 kB of the page's 120 kB. A client component is sent as its props, about
// a quarter of that, and is rendered to the same HTML. Every text is formatted on the server, so hydration renders
// exactly what the server did (dates in UTC, numbers in the page's locale).
//
// Counts and last seen are marked `data-live`: the page's StreamLive (live.tsx) writes newer figures into them.
import Link from "next/link";
import type { IssueStatus } from "@/storage/digest-ports";
import { Sparkline } from "../charts/sparkline";

/** One issue as the table shows it. */
export type StreamRow = {
  id: number;
  status: IssueStatus;
  shortId: string;
  /** The row's checkbox label ("Select SHOP-1A"). */
  select: string;
  title: string;
  culprit: string | null;
  level: string;
  events: string;
  users: string;
  /** Events per bucket of the sparkline, oldest first, and the sparkline's accessible label. */
  series: number[];
  seriesLabel: string;
  lastSeen: string;
  lastSeenText: string;
  firstSeen: string;
  firstSeenText: string;
  /** The assignee's name, "#team", or null when nobody is assigned. */
  assignee: string | null;
};

export type StreamTableLabels = {
  caption: string;
  select: string;
  columns: { issue: string; level: string; events: string; users: string; graph: string; lastSeen: string; firstSeen: string; assignee: string };
  status: Record<IssueStatus, string>;
  unassigned: string;
};

type Props = {
  rows: StreamRow[];
  labels: StreamTableLabels;
  /** The issue pages' path up to the id, locale included ("/en/orgs/acme/issues/"). */
  issueHref: string;
  /** Each row has a box for the bulk form around the table. */
  selectable: boolean;
};

export function IssueRows({ rows, labels, issueHref, selectable }: Props) {
  const c = labels.columns;
  return (
    <div className="stream-table-wrap">
      <table className="stream-table" data-testid="issue-table">
        <caption className="visually-hidden">{labels.caption}</caption>
        <thead>
          <tr>
            {selectable ? (
              <th scope="col">
                <span className="visually-hidden">{labels.select}</span>
              </th>
            ) : null}
            <th scope="col">{c.issue}</th>
            <th scope="col">{c.level}</th>
            <th scope="col" className="num">
              {c.events}
            </th>
            <th scope="col" className="num">
              {c.users}
            </th>
            <th scope="col">{c.graph}</th>
            <th scope="col">{c.lastSeen}</th>
            <th scope="col" className="wide-only">
              {c.firstSeen}
            </th>
            <th scope="col">{c.assignee}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid="issue-row" data-issue-id={r.id} data-status={r.status}>
              {selectable ? (
                <td>
                  <input type="checkbox" name="issue" value={r.id} id={`issue-${r.id}`} aria-label={r.select} />
                </td>
              ) : null}
              <td className="issue-cell">
                <span className={`badge status-${r.status}`}>{labels.status[r.status]}</span> <code className="short-id">{r.shortId}</code>
                <br />
                <Link href={`${issueHref}${r.id}`} className="issue-title" data-testid="issue-title">
                  {r.title}
                </Link>
                {r.culprit ? <span className="muted issue-culprit">{r.culprit}</span> : null}
              </td>
              <td>
                <span className={`badge level-${r.level}`}>{r.level}</span>
              </td>
              <td className="num" data-testid="issue-events">
                <span data-live="timesSeen">{r.events}</span>
              </td>
              <td className="num">
                <span data-live="userCount">{r.users}</span>
              </td>
              <td>
                <Sparkline values={r.series} label={r.seriesLabel} />
              </td>
              <td>
                <time dateTime={r.lastSeen} data-live="lastSeen">
                  {r.lastSeenText}
                </time>
              </td>
              <td className="wide-only">
                <time dateTime={r.firstSeen}>{r.firstSeenText}</time>
              </td>
              <td>{r.assignee ?? <span className="muted">{labels.unassigned}</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
