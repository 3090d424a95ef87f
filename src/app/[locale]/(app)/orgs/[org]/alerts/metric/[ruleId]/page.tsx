// One metric alert: its state, the metric over the last 24 hours as evaluations saw it against its critical, warning
// and resolve thresholds (uPlot, loaded after the page), and its history of state changes.
import { getTranslations } from "next-intl/server";
import { metricAlertDetail } from "@/core/metric-alerts";
import { getOrganization } from "@/core/organizations";
import { LocaleLink } from "@/i18n/locale-link";
import { deleteMetricAlertAction } from "@/web/actions/metric-alerts.action";
import { ActionForm, SubmitButton } from "@/web/components/action-form";
import { TimeSeriesChart } from "@/web/components/charts/time-series-chart";
import { OrgNav } from "@/web/components/org-nav";
import { TableHead } from "@/web/components/table-head";
import { formatWhen } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function MetricAlertPage({ params }: { params: { locale: string; org: string; ruleId: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/alerts/metric/${params.ruleId}`);
  const { org } = await loadOrNotFound(() => getOrganization(core, params.org));
  const { rule, history, values, canWrite } = await loadOrNotFound(() => metricAlertDetail(core, params.org, params.ruleId));
  const t = await getTranslations("metricAlerts");
  const points = values.filter((v): v is { minute: string; value: number } => v.value !== null);
  // The whole 24 hours on the x axis (a gap before the first evaluation), so a new rule's few points are not stretched.
  const dayStart = Math.floor((Date.now() - 24 * 3_600_000) / 60_000) * 60;
  const last = Math.floor(Date.now() / 60_000) * 60;
  const times = [dayStart, ...points.map((p) => Date.parse(p.minute) / 1000).filter((s) => s > dayStart && s < last), last];
  const byTime = new Map(points.map((p) => [Date.parse(p.minute) / 1000, p.value]));
  const flat = (x: number) => times.map(() => x);
  const critical = rule.triggers.find((x) => x.label === "critical");
  const warning = rule.triggers.find((x) => x.label === "warning");
  const series = [
    { label: rule.aggregate, values: times.map((s) => byTime.get(s) ?? null), color: "--accent" },
    ...(critical ? [{ label: t("trigger.critical"), values: flat(critical.alertThreshold), color: "--danger" }] : []),
    ...(warning ? [{ label: t("trigger.warning"), values: flat(warning.alertThreshold), color: "--warn" }] : []),
    ...(rule.resolveThreshold !== null ? [{ label: t("resolveThreshold"), values: flat(rule.resolveThreshold), color: "--ok" }] : []),
  ];
  const base = `/orgs/${org.slug}/alerts`;
  return (
    <>
      <OrgNav org={org} current="alerts" />
      <p className="crumbs">
        <LocaleLink locale={params.locale} href={base}>
          {t("title")}
        </LocaleLink>
      </p>
      <h1>{rule.name}</h1>
      <p>
        <span className={`badge state-${rule.status}`} data-testid="metric-alert-state">
          {t(`states.${rule.status}`)}
        </span>{" "}
        <code>{rule.aggregate}</code> · {t("minutes", { count: rule.timeWindow })} · {rule.project?.name ?? t("allProjects")}
        {rule.environment ? ` · ${rule.environment}` : ""}
      </p>
      <section className="card">
        <h2>{t("chartTitle")}</h2>
        {points.length === 0 ? (
          <p className="muted" data-testid="metric-alert-no-data">
            {t("noData")}
          </p>
        ) : (
          <TimeSeriesChart
            kind="line"
            data={{ times, series }}
            label={t("chartLabel", { aggregate: rule.aggregate })}
            summary={t("chartSummary", { count: points.length, last: String(points[points.length - 1]!.value) })}
            testId="metric-alert-chart"
          />
        )}
      </section>
      <section className="card">
        <h2>{t("historyTitle")}</h2>
        {history.length === 0 ? (
          <p className="muted">{t("noHistory")}</p>
        ) : (
          <div className="table-scroll">
            <table className="table" data-testid="metric-alert-history">
              <caption className="visually-hidden">{t("historyTitle")}</caption>
              <TableHead columns={[t("when"), t("from"), t("to"), t("value"), t("threshold")]} />
              <tbody>
                {history.map((h) => (
                  <tr key={h.id}>
                    <td>{formatWhen(params.locale, h.changedAt)}</td>
                    <td>{t(`states.${h.from}`)}</td>
                    <td>{t(`states.${h.to}`)}</td>
                    <td>{h.value ?? "—"}</td>
                    <td>{h.threshold ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {canWrite ? (
        <section className="card">
          <p>
            <LocaleLink locale={params.locale} href={`${base}/metric/${rule.id}/edit`} className="button secondary" data-testid="edit-metric-alert">
              {t("edit")}
            </LocaleLink>
          </p>
          <ActionForm action={deleteMetricAlertAction.bind(null, params.locale, org.slug, rule.id)} className="inline-form" testId="delete-metric-alert">
            <SubmitButton variant="danger">{t("delete")}</SubmitButton>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
