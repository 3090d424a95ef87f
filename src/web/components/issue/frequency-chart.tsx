// How often the issue happened: events per hour over the last 24 hours and per day over the last 30 days (in the
// page's environment, when one is chosen).
import { getTranslations } from "next-intl/server";
import type { IssueFrequency } from "@/core/issue-stats";
import { RETENTION_LIMITS } from "@/config/limits";
import { formatCount } from "@/web/format";
import { TimeSeriesChart } from "../charts/time-series-chart";

export async function FrequencyChart({ frequency, environment, locale }: { frequency: IssueFrequency; environment: string | null; locale: string }) {
  const t = await getTranslations("issueDetail.frequency");
  const chart = (period: "24h" | "30d") => {
    const points = frequency[period];
    const total = points.reduce((n, [, c]) => n + c, 0);
    return (
      <div className="frequency-period">
        <h3>{t(`period.${period}`)}</h3>
        <TimeSeriesChart
          data={{ times: points.map(([at]) => at), series: [{ label: t("events"), values: points.map(([, c]) => c), color: "--accent" }] }}
          label={t("label", { period: t(`period.${period}`) })}
          summary={t("summary", { count: total })}
          height={120}
          testId={`frequency-${period}`}
        />
      </div>
    );
  };
  return (
    <section className="card" aria-labelledby="frequency-title">
      <h2 id="frequency-title">{t("title")}</h2>
      {environment ? (
        <p className="muted" data-testid="frequency-environment">
          {t("inEnvironment", { environment, kept: formatCount(locale, RETENTION_LIMITS.eventsPerIssue) })}
        </p>
      ) : null}
      <div className="frequency">
        {chart("24h")}
        {chart("30d")}
      </div>
    </section>
  );
}
