// Tabs of an organization: projects and settings sections.
import { getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";
import type { Organization } from "@/storage/ports";

export async function OrgNav({ org, current }: { org: Organization; current: "projects" | "general" | "members" | "teams" }) {
  const t = await getTranslations("org");
  const tabs = [
    ["projects", `/orgs/${org.slug}`],
    ["general", `/orgs/${org.slug}/settings`],
    ["members", `/orgs/${org.slug}/settings/members`],
    ["teams", `/orgs/${org.slug}/settings/teams`],
  ] as const;
  return (
    <div className="page-head">
      <p className="crumbs">
        <Link href="/orgs">{t("organizations")}</Link> / <span>{org.name}</span>
      </p>
      <nav className="tabs" aria-label={org.name}>
        {tabs.map(([id, href]) => (
          <Link key={id} href={href} aria-current={id === current ? "page" : undefined}>
            {t(`tabs.${id}`)}
          </Link>
        ))}
      </nav>
    </div>
  );
}
