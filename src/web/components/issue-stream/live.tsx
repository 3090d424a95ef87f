"use client";
// The issue stream's live updates: one EventSource per page (web/issue-stream-events.ts). Figures of the issues on
// screen change in place; new issues are announced with a button that re-renders the page from the server.
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { useRouter } from "next/navigation";
import { formatCompactCount as formatCount, formatWhen } from "@/web/format";

type Figures = { id: number; timesSeen: number; userCount: number; lastSeen: string; status: string };
const Live = createContext<Map<number, Figures>>(new Map());

type Labels = { one: string; many: string; capped: string; show: string };

export function StreamLive({ url, labels, children }: { url: string; labels: Labels; children: ReactNode }) {
  const router = useRouter();
  const [figures, setFigures] = useState(() => new Map<number, Figures>());
  const [fresh, setFresh] = useState({ count: 0, capped: false });
  useEffect(() => {
    // A new page (after "show", a bulk change, a search) starts from the figures it was rendered with.
    setFigures(new Map());
    setFresh({ count: 0, capped: false });
    const source = new EventSource(url);
    source.addEventListener("figures", (e) => {
      const { issues } = JSON.parse((e as MessageEvent<string>).data) as { issues: Figures[] };
      setFigures((old) => new Map([...old, ...issues.map((f) => [f.id, f] as const)]));
    });
    source.addEventListener("new", (e) => setFresh(JSON.parse((e as MessageEvent<string>).data) as { count: number; capped: boolean }));
    source.addEventListener("end", () => source.close());
    return () => source.close();
  }, [url]);
  const text = fresh.capped ? labels.capped : (fresh.count === 1 ? labels.one : labels.many).replace("#", String(fresh.count));
  return (
    <Live.Provider value={figures}>
      <div className="stream-live" role="status" aria-live="polite" data-testid="stream-live" data-connected={url}>
        {fresh.count > 0 ? (
          <p className="stream-new">
            <span data-testid="new-issues">{text}</span>{" "}
            <button type="button" className="button secondary" onClick={() => router.refresh()}>
              {labels.show}
            </button>
          </p>
        ) : null}
      </div>
      {children}
    </Live.Provider>
  );
}

/** One figure of an issue: the server's value until the stream sends a newer one. */
export function LiveFigure({ id, field, locale, initial }: { id: number; field: "timesSeen" | "userCount" | "lastSeen"; locale: string; initial: number | string }) {
  const live = useContext(Live).get(id);
  const value = live ? live[field] : initial;
  const text = typeof value === "number" ? formatCount(locale, value) : formatWhen(locale, value);
  return field === "lastSeen" ? (
    <time dateTime={String(value)} data-live={field}>
      {text}
    </time>
  ) : (
    <span data-live={field}>{text}</span>
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
