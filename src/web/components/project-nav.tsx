// Breadcrumbs and tabs of a project: setup, issues (the organization's stream narrowed to it), performance, logs, settings,
// client keys, stats, data scrubbing, alerts.
import { getLocale, getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import type { Organization, Project } from "@/storage/ports";
import { PageTabs } from "./page-tabs";

export async function ProjectNav({
  org,
  project,
  current,
}: {
  org: Organization;
  project: Project;
  current: "setup" | "performance" | "logs" | "general" | "keys" | "stats" | "scrubbing" | "alerts";
}) {
  const t = await getTranslations("project");
  // One read of the locale for the links below, instead of one suspension per link (i18n/locale-link.tsx).
  const locale = await getLocale();
  const base = `/orgs/${org.slug}/projects/${project.slug}`;
  return (
    <div className="page-head">
      <p className="crumbs">
        <LocaleLink locale={locale} href="/orgs">
          {t("organizations")}
        </LocaleLink>{" "}
        /{" "}
        <LocaleLink locale={locale} href={`/orgs/${org.slug}`}>
          {org.name}
        </LocaleLink>{" "}
        / <span>{project.name}</span>
      </p>
      <PageTabs
        locale={locale}
        label={project.name}
        current={current}
        tabs={[
          { id: "setup", href: base, label: t("tabs.setup") },
          { id: "issues", href: `/orgs/${org.slug}/issues?project=${encodeURIComponent(project.slug)}`, label: t("tabs.issues") },
          { id: "performance", href: `${base}/performance`, label: t("tabs.performance") },
          { id: "logs", href: `${base}/logs`, label: t("tabs.logs") },
          { id: "releases", href: `/orgs/${org.slug}/releases?project=${encodeURIComponent(project.slug)}`, label: t("tabs.releases") },
          { id: "general", href: `${base}/settings`, label: t("tabs.general") },
          { id: "keys", href: `${base}/settings/keys`, label: t("tabs.keys") },
          { id: "stats", href: `${base}/settings/stats`, label: t("tabs.stats") },
          { id: "scrubbing", href: `${base}/settings/scrubbing`, label: t("tabs.scrubbing") },
          { id: "alerts", href: `${base}/alerts`, label: t("tabs.alerts") },
        ]}
      />
    </div>
  );
}
