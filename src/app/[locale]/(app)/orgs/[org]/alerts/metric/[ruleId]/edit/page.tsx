// Changing a metric alert (owners and admins).
import { getTranslations } from "next-intl/server";
import { getOrgAccess } from "@/core/access";
import { canWriteAlerts } from "@/core/alert-rules";
import { getMetricAlert } from "@/core/metric-alerts";
import { listProjects } from "@/core/projects";
import { LocaleLink } from "@/i18n/locale-link";
import { MetricAlertEditor } from "@/web/components/metric-alerts/editor";
import { OrgNav } from "@/web/components/org-nav";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function EditMetricAlertPage({ params }: { params: { locale: string; org: string; ruleId: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/alerts/metric/${params.ruleId}/edit`);
  const access = await loadOrNotFound(() => getOrgAccess(core, params.org));
  const rule = await loadOrNotFound(() => getMetricAlert(core, params.org, params.ruleId));
  const t = await getTranslations("metricAlerts");
  const { items } = await listProjects(core, access.org.slug, { limit: 100 });
  return (
    <>
      <OrgNav org={access.org} current="alerts" />
      <p className="crumbs">
        <LocaleLink locale={params.locale} href={`/orgs/${access.org.slug}/alerts`}>
          {t("title")}
        </LocaleLink>{" "}
        /{" "}
        <LocaleLink locale={params.locale} href={`/orgs/${access.org.slug}/alerts/metric/${rule.id}`}>
          {rule.name}
        </LocaleLink>
      </p>
      <h1>{t("edit")}</h1>
      {(await canWriteAlerts(core, access)) ? (
        <MetricAlertEditor locale={params.locale} org={access.org.slug} projects={items} rule={rule} />
      ) : (
        <p className="muted">{t("notAllowed")}</p>
      )}
    </>
  );
}
