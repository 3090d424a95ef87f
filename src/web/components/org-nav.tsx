// Breadcrumbs and tabs of an organization: projects, issues, alerts, cron monitors, releases, user feedback and settings sections (auth tokens included).
import { getLocale, getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import type { Organization } from "@/storage/ports";
import { PageTabs } from "./page-tabs";

export async function OrgNav({
  org,
  current,
}: {
  org: Organization;
  current:
    | "projects"
    | "issues"
    | "alerts"
    | "monitors"
    | "releases"
    | "general"
    | "members"
    | "teams"
    | "tokens"
    | "privacy"
    | "scrubbing"
    | "audit"
    | "traces"
    | "feedback";
}) {
  const t = await getTranslations("org");
  // One read of the locale for the links below, instead of one suspension per link (i18n/locale-link.tsx).
  const locale = await getLocale();
  const base = `/orgs/${org.slug}`;
  return (
    <div className="page-head">
      <p className="crumbs">
        <LocaleLink locale={locale} href="/orgs">
          {t("organizations")}
        </LocaleLink>{" "}
        / <span>{org.name}</span>
      </p>
      <PageTabs
        locale={locale}
        label={org.name}
        current={current}
        tabs={[
          { id: "projects", href: base, label: t("tabs.projects") },
          { id: "issues", href: `${base}/issues`, label: t("tabs.issues") },
          { id: "alerts", href: `${base}/alerts`, label: t("tabs.alerts") },
          { id: "monitors", href: `${base}/monitors`, label: t("tabs.monitors") },
          { id: "releases", href: `${base}/releases`, label: t("tabs.releases") },
          { id: "feedback", href: `${base}/feedback`, label: t("tabs.feedback") },
          { id: "general", href: `${base}/settings`, label: t("tabs.general") },
          { id: "members", href: `${base}/settings/members`, label: t("tabs.members") },
          { id: "teams", href: `${base}/settings/teams`, label: t("tabs.teams") },
          { id: "tokens", href: `${base}/settings/tokens`, label: t("tabs.tokens") },
          { id: "privacy", href: `${base}/settings/privacy`, label: t("tabs.privacy") },
          { id: "scrubbing", href: `${base}/settings/scrubbing`, label: t("tabs.scrubbing") },
          { id: "audit", href: `${base}/settings/audit`, label: t("tabs.audit") },
        ]}
      />
    </div>
  );
}
