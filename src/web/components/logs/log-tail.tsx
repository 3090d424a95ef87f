"use client";
// The logs page's live tail: one EventSource on the page's search (web/log-tail-events.ts); lines stored since the page
// was read appear above its rows, newest first, without a reload. Stopped and started with a button; without
// JavaScript the page is the same list, read again with its "Newest lines" link.
import { type ReactNode, useEffect, useRef, useState } from "react";
import type { StoredLog } from "@/storage/log-ports";
import { type LogLinks, LogRow, type LogRowLabels, LogTable } from "./log-row";

/** lines kept above the page: older tail lines drop off the bottom of this list (they are in the page when reloaded). */
const KEPT = 500;

export type LogTailLabels = Labels;
type Labels = { on: string; off: string; start: string; stop: string; more: string; ended: string };

/**
 * The page's lines, `items`, rendered here from data rather than as server components: the page's RSC payload then
 * carries the lines' JSON, not their element tree besides the HTML (as the issue stream's rows). `url`: the live tail's
 * stream, on the first page only (null: no tail).
 */
export function LogLines({
  items,
  url,
  labels,
  rowLabels,
  links,
}: {
  items: StoredLog[];
  url: string | null;
  labels: Labels;
  rowLabels: LogRowLabels;
  links: LogLinks;
}) {
  const rows = (
    <tbody>
      {items.map((log) => (
        <LogRow key={log.id} log={log} labels={rowLabels} links={links} />
      ))}
    </tbody>
  );
  if (url === null) return <LogTable labels={rowLabels}>{rows}</LogTable>;
  return (
    <LogTail url={url} labels={labels} rowLabels={rowLabels} links={links}>
      {rows}
    </LogTail>
  );
}

function LogTail({ url, labels, rowLabels, links, children }: { url: string; labels: Labels; rowLabels: LogRowLabels; links: LogLinks; children: ReactNode }) {
  const [lines, setLines] = useState<StoredLog[]>([]);
  const [following, setFollowing] = useState(true);
  const [more, setMore] = useState(false);
  const [ended, setEnded] = useState<string | null>(null);
  /** The newest line shown: a new connection (after "stop" and "follow") starts after it. */
  const newest = useRef(0);
  useEffect(() => {
    if (!following) return;
    const source = new EventSource(newest.current > 0 ? url.replace(/([?&]after=)\d+/, `$1${newest.current}`) : url);
    source.addEventListener("logs", (e) => {
      const data = JSON.parse((e as MessageEvent<string>).data) as { items: StoredLog[]; more: boolean };
      // The browser reconnects on its own with the first URL: lines it sends again are shown once.
      const fresh = data.items.filter((l) => l.id > newest.current);
      if (fresh.length > 0) newest.current = fresh[fresh.length - 1]!.id;
      setLines((now) => [...fresh.reverse(), ...now].slice(0, KEPT));
      if (data.more) setMore(true);
    });
    source.addEventListener("end", (e) => {
      source.close();
      setFollowing(false);
      setEnded((JSON.parse((e as MessageEvent<string>).data) as { reason?: string }).reason ?? "");
    });
    return () => source.close();
  }, [url, following]);
  return (
    <>
      <div className="log-live" role="status" aria-live="polite" data-testid="log-live" data-following={following ? "yes" : "no"}>
        <span>{following ? labels.on : labels.off}</span>{" "}
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            setEnded(null);
            setFollowing(!following);
          }}
          data-testid="log-live-toggle"
        >
          {following ? labels.stop : labels.start}
        </button>
        {more ? <span className="muted"> {labels.more}</span> : null}
        {ended !== null ? (
          <span className="muted" data-testid="log-live-ended">
            {" "}
            {labels.ended.replace("{reason}", ended)}
          </span>
        ) : null}
      </div>
      <LogTable
        labels={rowLabels}
        tail={
          <tbody data-testid="log-tail">
            {lines.map((l) => (
              <LogRow key={l.id} log={l} labels={rowLabels} links={links} />
            ))}
          </tbody>
        }
      >
        {children}
      </LogTable>
    </>
  );
}
