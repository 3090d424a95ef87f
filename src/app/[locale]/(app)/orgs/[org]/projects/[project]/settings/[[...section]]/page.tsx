// Project settings: general (default of the optional catch-all), DSN keys, usage stats and data scrubbing.
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { scrubbingOptionsOf } from "@/core/data-scrubbing";
import { can } from "@/core/permissions";
import { PLATFORMS } from "@/core/platforms";
import { getProject } from "@/core/projects";
import { deleteProjectAction, setSourceFetchingAction, updateProjectAction } from "@/web/actions/projects.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { ProjectNav } from "@/web/components/project-nav";
import { ScrubbingSettings } from "@/web/components/scrubbing-settings";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";
import { KeysSection } from "./keys-section";
import { StatsSection } from "./stats-section";
import { RetentionCard } from "./retention-card";
import { AttachmentsCard } from "./attachments-card";

export const dynamic = "force-dynamic";

export default async function ProjectSettingsPage({ params }: { params: { locale: string; org: string; project: string; section?: string[] } }) {
  const [section = "general", ...extra] = params.section ?? [];
  if (extra.length > 0 || (section !== "general" && section !== "keys" && section !== "stats" && section !== "scrubbing")) notFound();
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/projects/${params.project}/settings`);
  const { access, project } = await loadOrNotFound(() => getProject(core, params.org, params.project));
  const t = await getTranslations("projectSettings");
  return (
    <>
      <ProjectNav org={access.org} project={project} current={section} />
      <h1>{t(`${section}.title`)}</h1>
      {section === "scrubbing" ? (
        <ScrubbingSettings
          locale={params.locale}
          target={{ org: access.org.slug, project: project.slug }}
          options={await scrubbingOptionsOf(core, { projectId: project.id })}
          editable={can(access.role, "project:update")}
        />
      ) : section === "keys" ? (
        <KeysSection core={core} access={access} project={project} locale={params.locale} />
      ) : section === "stats" ? (
        <StatsSection core={core} org={access.org} project={project} />
      ) : can(access.role, "project:update") ? (
        <>
          <section className="card">
            <ActionForm
              action={updateProjectAction.bind(null, params.locale, access.org.slug, project.slug)}
              successMessage={t("general.saved")}
              testId="project-general-form"
            >
              <Field name="name" label={t("general.name")} defaultValue={project.name} required />
              <Field name="slug" label={t("general.slug")} defaultValue={project.slug} required />
              <Field
                name="platform"
                label={t("general.platform")}
                defaultValue={project.platform ?? "other"}
                options={PLATFORMS.map((p) => ({ value: p.id, label: p.name }))}
              />
              <SubmitButton>{t("general.save")}</SubmitButton>
            </ActionForm>
          </section>
          <section className="card" aria-labelledby="source-maps-title">
            <h2 id="source-maps-title">{t("general.sourceMapsTitle")}</h2>
            <p className="muted">{t("general.sourceMapsIntro")}</p>
            <ActionForm
              action={setSourceFetchingAction.bind(null, params.locale, access.org.slug, project.slug)}
              successMessage={t("general.saved")}
              testId="project-source-fetching-form"
            >
              <p>
                <label className="check-field">
                  <input type="checkbox" name="scrapeJavaScript" defaultChecked={project.scrapeJavaScript} data-testid="scrape-javascript" />{" "}
                  {t("general.scrapeJavaScript")}
                </label>
              </p>
              <SubmitButton>{t("general.save")}</SubmitButton>
            </ActionForm>
          </section>
          <RetentionCard locale={params.locale} org={access.org.slug} project={project} editable />
          <AttachmentsCard locale={params.locale} org={access.org.slug} project={project} editable />
          {can(access.role, "project:delete") ? (
            <section className="card danger-zone">
              <h2>{t("general.deleteTitle")}</h2>
              <ActionForm action={deleteProjectAction.bind(null, params.locale, access.org.slug, project.slug)} testId="project-delete-form">
                <SubmitButton variant="danger">{t("general.delete")}</SubmitButton>
              </ActionForm>
            </section>
          ) : null}
        </>
      ) : (
        <>
          <dl className="facts">
            <dt>{t("general.name")}</dt>
            <dd>{project.name}</dd>
            <dt>{t("general.slug")}</dt>
            <dd>{project.slug}</dd>
            <dt>{t("general.sourceMapsTitle")}</dt>
            <dd>{project.scrapeJavaScript ? t("general.scrapeJavaScriptOn") : t("general.scrapeJavaScriptOff")}</dd>
          </dl>
          <RetentionCard locale={params.locale} org={access.org.slug} project={project} editable={false} />
          <AttachmentsCard locale={params.locale} org={access.org.slug} project={project} editable={false} />
        </>
      )}
    </>
  );
}
