import { getTranslations } from "next-intl/server";
import { Link } from "@/i18n/navigation";
import type { Organization, Project } from "@/storage/ports";

export async function ProjectNav({ org, project, current }: { org: Organization; project: Project; current: "setup" | "general" | "keys" }) {
  const t = await getTranslations("project");
  const base = `/orgs/${org.slug}/projects/${project.slug}`;
  const tabs = [
    ["setup", base],
    ["general", `${base}/settings`],
    ["keys", `${base}/settings/keys`],
  ] as const;
  return (
    <div className="page-head">
      <p className="crumbs">
        <Link href="/orgs">{t("organizations")}</Link> / <Link href={`/orgs/${org.slug}`}>{org.name}</Link> / <span>{project.name}</span>
      </p>
      <nav className="tabs" aria-label={project.name}>
        {tabs.map(([id, href]) => (
          <Link key={id} href={href} aria-current={id === current ? "page" : undefined}>
            {t(`tabs.${id}`)}
          </Link>
        ))}
      </nav>
    </div>
  );
}
