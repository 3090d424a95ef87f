// A project's issue alert rules, and its failing deliveries.
import { getTranslations } from "next-intl/server";
import { failingDeliveries, listAlertRules } from "@/core/alert-rules";
import { LocaleLink } from "@/i18n/locale-link";
import { DeliveryTable } from "@/web/components/alert-deliveries";
import { ProjectNav } from "@/web/components/project-nav";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function AlertRulesPage({ params }: { params: { locale: string; org: string; project: string } }) {
  const base = `/orgs/${params.org}/projects/${params.project}/alerts`;
  const core = await requireCore(params.locale, `/${params.locale}${base}`);
  const { access, project, rules, canWrite } = await loadOrNotFound(() => listAlertRules(core, params.org, params.project));
  const failing = await failingDeliveries(core, params.org, params.project);
  const t = await getTranslations("alerts");
  return (
    <>
      <ProjectNav org={access.org} project={project} current="alerts" />
      <h1>{t("title")}</h1>
      <section className="card" aria-labelledby="rules-title">
        <h2 id="rules-title">{t("rules")}</h2>
        {rules.length === 0 ? (
          <p className="muted">{t("none")}</p>
        ) : (
          <table data-testid="alert-rules">
            <thead>
              <tr>
                <th scope="col">{t("name")}</th>
                <th scope="col">{t("environment")}</th>
                <th scope="col">{t("frequency")}</th>
                <th scope="col">{t("status")}</th>
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => (
                <tr key={r.id}>
                  <td>
                    <LocaleLink locale={params.locale} href={`${base}/${r.id}`}>
                      {r.name}
                    </LocaleLink>
                  </td>
                  <td>{r.environment ?? t("allEnvironments")}</td>
                  <td>{t("minutes", { n: r.frequency })}</td>
                  <td>{t(`statuses.${r.status}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {canWrite ? (
          <p>
            <LocaleLink locale={params.locale} href={`${base}/new`} className="button">
              {t("create")}
            </LocaleLink>
          </p>
        ) : null}
      </section>
      <section className="card" aria-labelledby="failing-title">
        <h2 id="failing-title">{t("failingTitle")}</h2>
        {failing.length === 0 ? <p className="muted">{t("noFailing")}</p> : <DeliveryTable rows={failing} locale={params.locale} testId="failing-deliveries" />}
      </section>
    </>
  );
}
