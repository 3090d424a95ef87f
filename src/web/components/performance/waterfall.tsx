// A trace's spans as a waterfall: one row per span (indented under its parent) with a bar placed on the trace's time
// axis. Drawn with CSS from the server: no script, readable as a table by screen readers.
import { getTranslations } from "next-intl/server";
import type { TraceSpanView } from "@/core/performance";
import { LocaleLink } from "@/i18n/locale-link";
import { formatMs } from "@/web/format";

export async function Waterfall({ locale, org, spans, durationMs }: { locale: string; org: string; spans: TraceSpanView[]; durationMs: number }) {
  const t = await getTranslations("performance.trace");
  const total = Math.max(durationMs, 1);
  return (
    <div className="table-scroll">
      <table className="table waterfall" data-testid="waterfall">
        <caption className="muted">{t("waterfallCaption", { count: spans.length })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("span")}</th>
            <th scope="col">{t("project")}</th>
            <th scope="col" className="num">
              {t("start")}
            </th>
            <th scope="col" className="num">
              {t("duration")}
            </th>
            <th scope="col" className="waterfall-axis">
              {t("timeline")}
            </th>
          </tr>
        </thead>
        <tbody>
          {spans.map((s) => (
            <tr key={`${s.id}`} data-testid="waterfall-row" data-span-id={s.spanId} className={s.status !== "ok" ? "span-failed" : undefined}>
              <td style={{ paddingLeft: `${0.8 + Math.min(s.depth, 20) * 1}rem` }}>
                <span className="span-op">{s.op}</span> <span className="wrap">{s.description || s.transaction}</span>
                {s.isSegment ? (
                  <>
                    {" "}
                    <LocaleLink
                      locale={locale}
                      href={`/orgs/${org}/projects/${s.projectSlug}/performance?transaction=${encodeURIComponent(s.transaction)}`}
                      className="muted"
                    >
                      {t("transaction")}
                    </LocaleLink>
                  </>
                ) : null}
                {s.status !== "ok" ? <span className="badge level-error">{s.status}</span> : null}
              </td>
              <td>{s.projectSlug}</td>
              <td className="num">{formatMs(locale, s.offsetMs)}</td>
              <td className="num">{formatMs(locale, s.durationMs)}</td>
              <td className="waterfall-axis" aria-hidden="true">
                <span className="waterfall-bar" style={{ marginLeft: `${(s.offsetMs / total) * 100}%`, width: `max(2px, ${(s.durationMs / total) * 100}%)` }} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
