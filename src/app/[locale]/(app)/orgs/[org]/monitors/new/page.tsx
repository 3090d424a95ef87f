// A new cron monitor (owners and admins): its project, name, slug and schedule.
import { getTranslations } from "next-intl/server";
import { allowed, getOrgAccess } from "@/core/access";
import { listProjects } from "@/core/projects";
import { LocaleLink } from "@/i18n/locale-link";
import { MonitorEditor } from "@/web/components/monitors/editor";
import { OrgNav } from "@/web/components/org-nav";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function NewMonitorPage({ params }: { params: { locale: string; org: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/monitors/new`);
  const access = await loadOrNotFound(() => getOrgAccess(core, params.org));
  const t = await getTranslations("monitors");
  const { items } = await listProjects(core, access.org.slug, { limit: 100 });
  return (
    <>
      <OrgNav org={access.org} current="monitors" />
      <p className="crumbs">
        <LocaleLink locale={params.locale} href={`/orgs/${access.org.slug}/monitors`}>
          {t("title")}
        </LocaleLink>
      </p>
      <h1>{t("new")}</h1>
      {allowed(access, "monitor:write") ? (
        <MonitorEditor locale={params.locale} org={access.org.slug} projects={items} monitor={null} />
      ) : (
        <p className="muted">{t("notAllowed")}</p>
      )}
    </>
  );
}
