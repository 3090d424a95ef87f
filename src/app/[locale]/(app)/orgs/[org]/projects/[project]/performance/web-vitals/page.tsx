// A project's web vitals per page over a period: for LCP, FCP, CLS, INP and TTFB the p75 and the share of good,
// needing improvement and poor values, and Sentry's performance score of each page (core/performance-metrics.ts).
import { getTranslations } from "next-intl/server";
import { getOrgAccess } from "@/core/access";
import { type VitalFigures, webVitals } from "@/core/performance";
import { WEB_VITALS, type WebVital } from "@/core/performance-metrics";
import { LocaleLink } from "@/i18n/locale-link";
import { formatDecimal, formatMs, formatRatio } from "@/web/format";
import { PerformanceHead } from "@/web/components/performance/performance-head";
import { TableHead } from "@/web/components/table-head";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function VitalCell({
  locale,
  vital,
  f,
  labels,
}: {
  locale: string;
  vital: WebVital;
  f: VitalFigures | undefined;
  labels: { good: string; meh: string; poor: string };
}) {
  if (!f || f.count === 0) return <td className="num muted">—</td>;
  const value = vital === "cls" ? formatDecimal(locale, f.p75, 3) : formatMs(locale, f.p75);
  const share = (n: number) => formatRatio(locale, n / f.count, 0);
  const summary = `${labels.good} ${share(f.good)}, ${labels.meh} ${share(f.meh)}, ${labels.poor} ${share(f.poor)}`;
  return (
    <td className="num" data-testid={`vital-${vital}`}>
      <strong>{value}</strong>
      <span className="vital-split" role="img" aria-label={summary} title={summary}>
        <span className="vital-good" style={{ width: `${(f.good / f.count) * 100}%` }} />
        <span className="vital-meh" style={{ width: `${(f.meh / f.count) * 100}%` }} />
        <span className="vital-poor" style={{ width: `${(f.poor / f.count) * 100}%` }} />
      </span>
      <span className="muted">{summary}</span>
    </td>
  );
}

export default async function WebVitalsPage({
  params,
  searchParams,
}: {
  params: { locale: string; org: string; project: string };
  searchParams: SearchParams;
}) {
  const l = params.locale;
  const core = await requireCore(l, `/${l}/orgs/${params.org}/projects/${params.project}/performance/web-vitals`);
  const { org } = await loadOrNotFound(() => getOrgAccess(core, params.org));
  const v = await loadOrNotFound(() => webVitals(core, params.org, params.project, { period: one(searchParams.period) }));
  const t = await getTranslations("performance");
  const labels = { good: t("vitals.good"), meh: t("vitals.meh"), poor: t("vitals.poor") };
  const base = `/orgs/${org.slug}/projects/${v.project.slug}/performance`;
  return (
    <>
      <PerformanceHead org={org} project={v.project} view="vitals" period={v.period} />
      {v.pages.length === 0 ? (
        <p className="card muted" data-testid="no-vitals">
          {t("noVitals")}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="vitals-table">
            <caption className="muted">{t("vitalsCaption")}</caption>
            <TableHead columns={[t("page"), t("score"), ...WEB_VITALS.map((x) => t(`vitals.${x}`))]} />
            <tbody>
              {v.pages.map((page) => (
                <tr
                  key={page.transaction}
                  data-testid={page.transaction === "" ? "vitals-total" : "vitals-row"}
                  className={page.transaction === "" ? "muted" : undefined}
                >
                  <td className="wrap">
                    {page.transaction === "" ? (
                      t("allPages")
                    ) : (
                      <LocaleLink locale={l} href={`${base}?period=${v.period}&transaction=${encodeURIComponent(page.transaction)}`}>
                        {page.transaction}
                      </LocaleLink>
                    )}
                  </td>
                  <td className="num" data-testid="performance-score">
                    <strong>{page.score === null ? "—" : Math.round(page.score)}</strong>
                  </td>
                  {WEB_VITALS.map((x) => (
                    <VitalCell key={x} locale={l} vital={x} f={page.vitals[x]} labels={labels} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
