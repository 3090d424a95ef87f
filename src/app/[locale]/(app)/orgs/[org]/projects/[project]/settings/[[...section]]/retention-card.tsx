// A project's own retention (issue 18): days its events are kept when shorter than the instance's
// FAULTLINE_RETENTION_DAYS; owners and admins change it (project:update), everyone else sees it.
import { getTranslations } from "next-intl/server";
import { getServices } from "@/runtime/services";
import type { Project } from "@/storage/ports";
import { setRetentionAction } from "@/web/actions/projects.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";

export async function RetentionCard({ locale, org, project, editable }: { locale: string; org: string; project: Project; editable: boolean }) {
  const t = await getTranslations("projectSettings.general");
  const instanceDays = getServices().config.retentionDays;
  const days = project.retentionDays !== null && project.retentionDays < instanceDays ? project.retentionDays : null;
  return (
    <section className="card" aria-labelledby="retention-title" data-testid="project-retention">
      <h2 id="retention-title">{t("retentionTitle")}</h2>
      <p className="muted">{t("retentionIntro", { instanceDays })}</p>
      {editable ? (
        <ActionForm action={setRetentionAction.bind(null, locale, org, project.slug)} successMessage={t("saved")} testId="project-retention-form">
          <Field
            name="retentionDays"
            type="number"
            label={t("retentionDays")}
            defaultValue={days === null ? "" : String(days)}
            placeholder={String(instanceDays)}
          />
          <SubmitButton>{t("save")}</SubmitButton>
        </ActionForm>
      ) : (
        <p>{days === null ? t("retentionInstance", { instanceDays }) : t("retentionOwn", { days })}</p>
      )}
    </section>
  );
}
