// Who may download a project's attachments (issue 19): Sentry's "attachments role", member by default. Owners and
// admins change it (project:update); everyone else sees it. Attachments may hold personal data (screenshots, logs,
// crash dumps), so a team can keep downloads to admins while members still see the list.
import { getTranslations } from "next-intl/server";
import { attachmentsRoleOf } from "@/core/attachments";
import { ROLES } from "@/core/roles";
import type { Project } from "@/storage/ports";
import { setAttachmentsRoleAction } from "@/web/actions/projects.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";

export async function AttachmentsCard({ locale, org, project, editable }: { locale: string; org: string; project: Project; editable: boolean }) {
  const t = await getTranslations("projectSettings.general");
  const roles = await getTranslations("roles");
  const role = attachmentsRoleOf(project);
  return (
    <section className="card" aria-labelledby="attachments-role-title" data-testid="project-attachments-role">
      <h2 id="attachments-role-title">{t("attachmentsRoleTitle")}</h2>
      <p className="muted">{t("attachmentsRoleIntro")}</p>
      {editable ? (
        <ActionForm action={setAttachmentsRoleAction.bind(null, locale, org, project.slug)} successMessage={t("saved")} testId="attachments-role-form">
          <Field name="attachmentsRole" label={t("attachmentsRole")} defaultValue={role} options={ROLES.map((r) => ({ value: r, label: roles(r) }))} />
          <SubmitButton>{t("save")}</SubmitButton>
        </ActionForm>
      ) : (
        <p>{t("attachmentsRoleIs", { role: roles(role) })}</p>
      )}
    </section>
  );
}
