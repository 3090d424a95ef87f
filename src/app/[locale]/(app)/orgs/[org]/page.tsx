// An organization's projects, and a form to create one (owners and admins).
import { getTranslations } from "next-intl/server";
import { can } from "@/core/permissions";
import { PLATFORMS } from "@/core/platforms";
import { listProjects } from "@/core/projects";
import { getOrganization } from "@/core/organizations";
import { LocaleLink } from "@/i18n/locale-link";
import { createProjectAction } from "@/web/actions/projects.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { OrgNav } from "@/web/components/org-nav";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function OrganizationPage({ params }: { params: { locale: string; org: string } }) {
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}`);
  const { org, role } = await loadOrNotFound(() => getOrganization(core, params.org));
  const { items } = await listProjects(core, org.slug, { limit: 100 });
  const teams = (await core.store.listTeams(org.id, { limit: 100 })).items;
  const t = await getTranslations("org");
  return (
    <>
      <OrgNav org={org} current="projects" />
      <h1>{t("projects")}</h1>
      {items.length === 0 ? <p className="muted">{t("noProjects")}</p> : null}
      <ul className="tile-list" data-testid="project-list">
        {items.map((p) => (
          <li key={p.id}>
            <LocaleLink locale={params.locale} href={`/orgs/${org.slug}/projects/${p.slug}`} className="tile">
              <strong>{p.name}</strong>
              <span className="muted">{PLATFORMS.find((x) => x.id === p.platform)?.name ?? p.platform ?? ""}</span>
            </LocaleLink>
          </li>
        ))}
      </ul>
      {can(role, "project:create") ? (
        <section className="card">
          <h2>{t("createProject")}</h2>
          <ActionForm action={createProjectAction.bind(null, params.locale, org.slug)} testId="create-project-form">
            <Field name="name" label={t("projectName")} required />
            <Field name="platform" label={t("platform")} defaultValue="javascript" options={PLATFORMS.map((p) => ({ value: p.id, label: p.name }))} />
            {teams.length > 0 ? (
              <Field
                name="team"
                label={t("team")}
                defaultValue=""
                options={[{ value: "", label: t("noTeam") }, ...teams.map((tm) => ({ value: tm.slug, label: tm.name }))]}
              />
            ) : null}
            <SubmitButton>{t("createProjectSubmit")}</SubmitButton>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
