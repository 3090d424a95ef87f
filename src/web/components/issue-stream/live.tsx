"use client";
// The issue stream's live updates: one EventSource per page (web/issue-stream-events.ts). Figures of the issues on
// screen change in place; new issues are announced with a button that re-renders the page from the server.
//
// The rows' live figures are marked `data-live` (issue-rows.tsx). New figures are written into those elements' text
// nodes rather than through state in the rows: the rows keep exactly the props the server sent, and a page of 25 rows
// does not re-render for each message. Writing the text node's value, not replacing the node, keeps the node React
// rendered, so a later server render (after "show", a bulk change) still updates it.
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { liveText } from "./live-text";

type Figures = { id: number; timesSeen: number; userCount: number; lastSeen: string; status: string };
type LiveField = "timesSeen" | "userCount" | "lastSeen";

type Labels = { one: string; many: string; capped: string; show: string; superseded: string; signedOut: string };
/** Why the server ended the stream for good (web/issue-stream-events.ts), for the reasons the page explains. */
type EndCode = "signed_out" | "superseded" | "refused" | "unavailable";

function setText(el: HTMLElement, text: string): void {
  const node = el.firstChild;
  if (node && node.nodeType === Node.TEXT_NODE && !node.nextSibling) {
    if (node.nodeValue !== text) node.nodeValue = text;
  } else el.textContent = text;
}

/** Writes the figures into the rows of `root` that show these issues. */
function applyFigures(root: HTMLElement, locale: string, figures: Figures[]): void {
  for (const f of figures) {
    const row = root.querySelector(`tr[data-issue-id="${f.id}"]`);
    if (!row) continue;
    for (const el of row.querySelectorAll<HTMLElement>("[data-live]")) {
      const field = el.dataset.live as LiveField;
      const value = f[field];
      if (value === undefined) continue;
      setText(el, liveText(locale, value));
      if (el instanceof HTMLTimeElement) el.dateTime = String(value);
    }
  }
}

export function StreamLive({ url, locale, labels, children }: { url: string; locale: string; labels: Labels; children: ReactNode }) {
  const router = useRouter();
  const rows = useRef<HTMLDivElement>(null);
  const [fresh, setFresh] = useState({ count: 0, capped: false });
  const [ended, setEnded] = useState<EndCode | null>(null);
  useEffect(() => {
    // A new page (after "show", a bulk change, a search) starts from the figures it was rendered with.
    setFresh({ count: 0, capped: false });
    setEnded(null);
    const source = new EventSource(url);
    source.addEventListener("figures", (e) => {
      const { issues } = JSON.parse((e as MessageEvent<string>).data) as { issues: Figures[] };
      if (rows.current) applyFigures(rows.current, locale, issues);
    });
    source.addEventListener("new", (e) => setFresh(JSON.parse((e as MessageEvent<string>).data) as { count: number; capped: boolean }));
    source.addEventListener("end", (e) => {
      source.close();
      setEnded((JSON.parse((e as MessageEvent<string>).data) as { code?: EndCode }).code ?? "unavailable");
    });
    return () => source.close();
  }, [url, locale]);
  const text = fresh.capped ? labels.capped : (fresh.count === 1 ? labels.one : labels.many).replace("#", String(fresh.count));
  return (
    <>
      <div className="stream-live" role="status" aria-live="polite" data-testid="stream-live" data-connected={url}>
        {fresh.count > 0 ? (
          <p className="stream-new">
            <span data-testid="new-issues">{text}</span>{" "}
            <button type="button" className="button secondary" onClick={() => router.refresh()}>
              {labels.show}
            </button>
          </p>
        ) : null}
        {ended === "superseded" || ended === "signed_out" ? (
          <p className="muted" data-testid="live-ended" data-code={ended}>
            {ended === "superseded" ? labels.superseded : labels.signedOut}
          </p>
        ) : null}
      </div>
      <div ref={rows} className="stream-live-rows">
        {children}
      </div>
    </>
  );
}

/** Checks or clears every issue's box in the bulk form. */
export function SelectAll({ label }: { label: string }) {
  return (
    <label className="select-all">
      <input
        type="checkbox"
        data-testid="select-all"
        onChange={(e) => {
          for (const box of e.currentTarget.form?.querySelectorAll<HTMLInputElement>('input[name="issue"]') ?? []) box.checked = e.currentTarget.checked;
        }}
      />{" "}
      {label}
    </label>
  );
}
