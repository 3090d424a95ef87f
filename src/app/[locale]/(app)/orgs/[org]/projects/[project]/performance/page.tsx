// A project's transactions over a period: throughput, p50/p75/p95, failure rate and Apdex, each with its change
// against the period before; the chart of transactions and p95 per hour (per day for 7 and 14 days), of one
// transaction with ?transaction= (with its newest traces) or of the project. Read from the digest's hourly rollups (core/performance.ts).
import { getTranslations } from "next-intl/server";
import { getOrgAccess } from "@/core/access";
import { performanceOverview, type TransactionRow } from "@/core/performance";
import { APDEX_THRESHOLD_MS } from "@/core/performance-metrics";
import { LocaleLink } from "@/i18n/locale-link";
import { TimeSeriesChart } from "@/web/components/charts/time-series-chart";
import { Trend } from "@/web/components/performance/figures";
import { PerformanceHead } from "@/web/components/performance/performance-head";
import { TableHead } from "@/web/components/table-head";
import { formatCount, formatDate, formatDecimal, formatMs, formatRate, formatRatio } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

type SearchParams = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function PerformancePage({
  params,
  searchParams,
}: {
  params: { locale: string; org: string; project: string };
  searchParams: SearchParams;
}) {
  const l = params.locale;
  const core = await requireCore(l, `/${l}/orgs/${params.org}/projects/${params.project}/performance`);
  const { org } = await loadOrNotFound(() => getOrgAccess(core, params.org));
  const p = await loadOrNotFound(() =>
    performanceOverview(core, params.org, params.project, { period: one(searchParams.period), transaction: one(searchParams.transaction) }),
  );
  const t = await getTranslations("performance");
  const base = `/orgs/${org.slug}/projects/${p.project.slug}/performance`;
  const trend = { none: t("trendNone") };
  const cells = (r: TransactionRow) => (
    <>
      <td className="num">
        {formatRate(l, r.current.perMinute)}
        <Trend labels={trend} locale={l} current={r.current.perMinute} previous={r.previous.perMinute} />
      </td>
      <td className="num">{formatMs(l, r.current.p50)}</td>
      <td className="num">{formatMs(l, r.current.p75)}</td>
      <td className="num">
        {formatMs(l, r.current.p95)}
        <Trend labels={trend} locale={l} current={r.current.p95} previous={r.previous.p95} worseWhenUp />
      </td>
      <td className="num">
        {formatRatio(l, r.current.failureRate)}
        <Trend labels={trend} locale={l} current={r.current.failureRate} previous={r.previous.failureRate} worseWhenUp />
      </td>
      <td className="num">
        {formatDecimal(l, r.current.apdex)}
        <Trend labels={trend} locale={l} current={r.current.apdex} previous={r.previous.apdex} worseWhenUp={false} />
      </td>
    </>
  );
  const title = p.selected ?? t("allTransactions");
  const totalCount = p.chart.count.reduce((a, b) => a + b, 0);
  return (
    <>
      <PerformanceHead
        org={org}
        project={p.project}
        view="transactions"
        period={p.period}
        extra={p.selected ? `&transaction=${encodeURIComponent(p.selected)}` : ""}
      />
      <section className="card">
        <h2 className="wrap">
          {title}
          {p.selected ? (
            <>
              {" "}
              <LocaleLink locale={l} href={`${base}?period=${p.period}`} className="muted" data-testid="clear-transaction">
                {t("showAll")}
              </LocaleLink>
            </>
          ) : null}
        </h2>
        <TimeSeriesChart
          testId="throughput-chart"
          label={t("throughputChart", { name: title, daily: String(p.chart.daily) })}
          summary={t("throughputSummary", { count: totalCount })}
          data={{
            times: p.chart.times,
            series: [
              { label: t("transactionsPerHour"), values: p.chart.count, color: "--accent" },
              { label: t("failuresPerHour"), values: p.chart.failures, color: "--danger" },
            ],
          }}
        />
        <TimeSeriesChart
          testId="p95-chart"
          kind="line"
          label={t("p95Chart", { name: title, daily: String(p.chart.daily) })}
          summary={t("p95Summary", {
            value: formatMs(l, p.selected ? (p.rows.find((r) => r.transaction === p.selected)?.current.p95 ?? null) : p.total.current.p95),
          })}
          data={{ times: p.chart.times, series: [{ label: t("p95"), values: p.chart.p95.map((v) => Math.round(v * 10) / 10), color: "--accent" }] }}
        />
      </section>
      {p.selected ? (
        <section className="card">
          <h2>{t("recentTraces")}</h2>
          {p.recent.length === 0 ? (
            <p className="muted">{t("noRecent")}</p>
          ) : (
            <ul className="issue-links" data-testid="recent-traces">
              {p.recent.map((s) => (
                <li key={s.id}>
                  <LocaleLink locale={l} href={`/orgs/${org.slug}/traces/${s.traceId}`}>
                    {formatDate(l, s.startTime)}
                  </LocaleLink>
                  <span className="muted">
                    {" "}
                    · {formatMs(l, s.durationMs)} · {s.status}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      {p.rows.length === 0 ? (
        <p className="card muted" data-testid="no-transactions">
          {t("noTransactions")}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="transactions-table">
            <caption className="muted">{t("tableCaption", { threshold: APDEX_THRESHOLD_MS })}</caption>
            <TableHead columns={[t("transaction"), t("tpm"), t("p50"), t("p75"), t("p95"), t("failureRate"), t("apdex")]} />
            <tbody>
              <tr className="muted" data-testid="transactions-total">
                <td>{t("allTransactions")}</td>
                {cells(p.total)}
              </tr>
              {p.rows.map((r) => (
                <tr key={r.transaction} data-testid="transaction-row">
                  <td className="wrap">
                    <LocaleLink
                      locale={l}
                      href={`${base}?period=${p.period}&transaction=${encodeURIComponent(r.transaction)}`}
                      aria-current={r.transaction === p.selected ? "true" : undefined}
                    >
                      {r.transaction}
                    </LocaleLink>
                    <span className="muted"> ({formatCount(l, r.current.count)})</span>
                  </td>
                  {cells(r)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
