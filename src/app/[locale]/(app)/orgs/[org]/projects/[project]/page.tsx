// A project's setup: its DSN and the SDK guide for its platform, opened with the DSN filled in.
import { getTranslations } from "next-intl/server";
import { buildDsn, listKeys } from "@/core/keys";
import { docsSlugFor, PLATFORMS } from "@/core/platforms";
import { getServices } from "@/runtime/services";
import { CopyField } from "@/web/components/copy-field";
import { ProjectNav } from "@/web/components/project-nav";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";
import { getOrgAccess } from "@/core/access";

export const dynamic = "force-dynamic";

export default async function ProjectPage({ params }: { params: { locale: string; org: string; project: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/projects/${params.project}`);
  const { project, keys } = await loadOrNotFound(() => listKeys(core, params.org, params.project));
  const { org } = await getOrgAccess(core, params.org);
  const { config, basePath } = getServices();
  const t = await getTranslations("project");
  const key = keys.find((k) => k.isActive);
  const dsn = key ? buildDsn(config.publicUrl, basePath, key, project).public : null;
  const docsBase = `${basePath}/${params.locale}/docs`;
  const slug = docsSlugFor(project.platform);
  return (
    <>
      <ProjectNav org={org} project={project} current="setup" />
      <h1>{project.name}</h1>
      <section className="card">
        <h2>{t("dsnTitle")}</h2>
        {dsn ? (
          <>
            <p className="muted">{t("dsnHint")}</p>
            <CopyField value={dsn} label={t("dsnTitle")} copyLabel={t("copy")} copiedLabel={t("copied")} />
          </>
        ) : (
          <p className="form-error">{t("noActiveKey")}</p>
        )}
      </section>
      <section className="card">
        <h2>{t("setupTitle")}</h2>
        <p>{t("setupBody", { platform: PLATFORMS.find((p) => p.id === project.platform)?.name ?? t("yourPlatform") })}</p>
        <p>
          {/* The DSN travels in the fragment, so it never reaches server logs; the docs page fills it in. */}
          <a className="button" data-testid="setup-docs-link" href={`${docsBase}${slug ? `/${slug}` : ""}${dsn ? `#dsn=${encodeURIComponent(dsn)}` : ""}`}>
            {t("openGuide")}
          </a>
        </p>
      </section>
    </>
  );
}
