// The organization's alerts: each metric alert with its state and last value, and the projects' issue alert rules.
import { getTranslations } from "next-intl/server";
import { getOrgAccess } from "@/core/access";
import { canWriteAlerts } from "@/core/alert-rules";
import { listMetricAlerts } from "@/core/metric-alerts";
import { listProjects } from "@/core/projects";
import { LocaleLink } from "@/i18n/locale-link";
import { OrgNav } from "@/web/components/org-nav";
import { TableHead } from "@/web/components/table-head";
import { formatWhen } from "@/web/format";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function AlertsPage({ params }: { params: { locale: string; org: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/alerts`);
  const access = await loadOrNotFound(() => getOrgAccess(core, params.org));
  const rules = await loadOrNotFound(() => listMetricAlerts(core, params.org));
  const { items: projects } = await listProjects(core, access.org.slug, { limit: 100 });
  const t = await getTranslations("metricAlerts");
  const base = `/orgs/${access.org.slug}/alerts`;
  return (
    <>
      <OrgNav org={access.org} current="alerts" />
      <h1>{t("title")}</h1>
      <section className="card">
        <h2>{t("metricTitle")}</h2>
        {(await canWriteAlerts(core, access)) ? (
          <p>
            <LocaleLink locale={params.locale} href={`${base}/metric/new`} className="button" data-testid="new-metric-alert">
              {t("new")}
            </LocaleLink>
          </p>
        ) : null}
        {rules.length === 0 ? (
          <p className="muted">{t("empty")}</p>
        ) : (
          <div className="table-scroll">
            <table className="table" data-testid="metric-alert-table">
              <caption className="visually-hidden">{t("metricTitle")}</caption>
              <TableHead columns={[t("name"), t("state"), t("aggregate"), t("project"), t("lastValue"), t("lastEvaluated")]} />
              <tbody>
                {rules.map((r) => (
                  <tr key={r.id} data-testid={`metric-alert-${r.id}`}>
                    <td>
                      <LocaleLink locale={params.locale} href={`${base}/metric/${r.id}`}>
                        {r.name}
                      </LocaleLink>
                    </td>
                    <td>
                      <span className={`badge state-${r.status}`} data-testid="metric-alert-state">
                        {t(`states.${r.status}`)}
                      </span>
                    </td>
                    <td>
                      <code>{r.aggregate}</code>
                    </td>
                    <td>{r.project?.name ?? t("allProjects")}</td>
                    <td>{r.lastValue ?? "—"}</td>
                    <td>{r.lastEvaluatedAt ? formatWhen(params.locale, r.lastEvaluatedAt) : t("never")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <section className="card">
        <h2>{t("issueTitle")}</h2>
        <p className="muted">{t("issueHint")}</p>
        <ul data-testid="issue-alert-links">
          {projects.map((p) => (
            <li key={p.id}>
              <LocaleLink locale={params.locale} href={`/orgs/${access.org.slug}/projects/${p.slug}/alerts`}>
                {p.name}
              </LocaleLink>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
