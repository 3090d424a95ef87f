// A new metric alert (owners and admins).
import { getTranslations } from "next-intl/server";
import { getOrgAccess } from "@/core/access";
import { canWriteAlerts } from "@/core/alert-rules";
import { listProjects } from "@/core/projects";
import { LocaleLink } from "@/i18n/locale-link";
import { MetricAlertEditor } from "@/web/components/metric-alerts/editor";
import { OrgNav } from "@/web/components/org-nav";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function NewMetricAlertPage({ params }: { params: { locale: string; org: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/alerts/metric/new`);
  const access = await loadOrNotFound(() => getOrgAccess(core, params.org));
  const t = await getTranslations("metricAlerts");
  const { items } = await listProjects(core, access.org.slug, { limit: 100 });
  return (
    <>
      <OrgNav org={access.org} current="alerts" />
      <p className="crumbs">
        <LocaleLink locale={params.locale} href={`/orgs/${access.org.slug}/alerts`}>
          {t("title")}
        </LocaleLink>
      </p>
      <h1>{t("new")}</h1>
      {(await canWriteAlerts(core, access)) ? (
        <MetricAlertEditor locale={params.locale} org={access.org.slug} projects={items} rule={null} />
      ) : (
        <p className="muted">{t("notAllowed")}</p>
      )}
    </>
  );
}
