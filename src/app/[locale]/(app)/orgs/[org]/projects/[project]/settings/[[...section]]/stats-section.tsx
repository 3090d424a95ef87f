// Project stats: events accepted, filtered, rate-limited and invalid as charts (hourly over the last day, daily over
// the last 30), and outcome counts by outcome, data category and reason for the same periods.
import { getLocale, getTranslations } from "next-intl/server";
import type { CoreContext } from "@/core/context";
import { type OutcomeChart, projectOutcomeChart, projectOutcomeTotals } from "@/core/stats";
import { TimeSeriesChart } from "@/web/components/charts/time-series-chart";
import type { OutcomeTotal, Organization, Project } from "@/storage/ports";
import { formatCount } from "@/web/format";

async function OutcomeTable({ title, totals, testId }: { title: string; totals: OutcomeTotal[]; testId: string }) {
  const t = await getTranslations("projectSettings.stats");
  const locale = await getLocale();
  return (
    <section className="card" data-testid={testId}>
      <h2>{title}</h2>
      {totals.length === 0 ? (
        <p className="muted">{t("empty")}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t("outcome")}</th>
              <th scope="col">{t("category")}</th>
              <th scope="col">{t("reason")}</th>
              <th scope="col" className="num">
                {t("quantity")}
              </th>
            </tr>
          </thead>
          <tbody>
            {totals.map((o) => (
              <tr key={`${o.outcome}/${o.category}/${o.reason}`}>
                <td>{t(`outcomes.${o.outcome}`)}</td>
                <td>
                  <code>{o.category}</code>
                </td>
                <td>{o.reason ? <code>{o.reason}</code> : "—"}</td>
                <td className="num">{formatCount(locale, o.quantity)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Palette variables of each charted outcome. */
const COLORS: Record<string, string> = { accepted: "--ok", filtered: "--muted", rate_limited: "--warn", invalid: "--danger" };

async function OutcomeChartCard({ title, chart, testId }: { title: string; chart: OutcomeChart; testId: string }) {
  const t = await getTranslations("outcomeChart");
  const to = await getTranslations("projectSettings.stats.outcomes");
  const locale = await getLocale();
  const totals = chart.series
    .map(
      (s) =>
        `${to(s.outcome)}: ${formatCount(
          locale,
          s.values.reduce((a, b) => a + b, 0),
        )}`,
    )
    .join(" · ");
  return (
    <section className="card">
      <h2>{title}</h2>
      <TimeSeriesChart
        testId={testId}
        label={t("label", { period: title })}
        summary={totals}
        data={{ times: chart.times, series: chart.series.map((s) => ({ label: to(s.outcome), values: s.values, color: COLORS[s.outcome] ?? "--accent" })) }}
      />
    </section>
  );
}

export async function StatsSection({ core, org, project }: { core: CoreContext; org: Organization; project: Project }) {
  const t = await getTranslations("projectSettings.stats");
  const [day, month, dayChart, monthChart] = await Promise.all([
    projectOutcomeTotals(core, org.slug, project.slug, 1),
    projectOutcomeTotals(core, org.slug, project.slug, 30),
    projectOutcomeChart(core, org.slug, project.slug, "24h"),
    projectOutcomeChart(core, org.slug, project.slug, "30d"),
  ]);
  const tc = await getTranslations("outcomeChart");
  return (
    <>
      <p>{t("intro")}</p>
      <div className="chart-pair">
        <OutcomeChartCard title={tc("hourly")} chart={dayChart} testId="stats-chart-24h" />
        <OutcomeChartCard title={tc("daily")} chart={monthChart} testId="stats-chart-30d" />
      </div>
      <OutcomeTable title={t("last24h")} totals={day} testId="stats-24h" />
      <OutcomeTable title={t("last30d")} totals={month} testId="stats-30d" />
    </>
  );
}
