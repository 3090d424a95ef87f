// The account page's "Notifications": language, time zone and workflow notices; per organization the weekly summary
// and e-mail alerts per project. Every setting is its own small form, so each works without JavaScript.
import { getTranslations } from "next-intl/server";
import { getAccountNotifications, timeZones } from "@/core/notification-settings";
import type { CoreContext } from "@/core/context";
import { setProjectEmailAction, setWeeklySummaryAction, updatePersonalNotificationsAction } from "@/web/actions/notifications.action";
import { ActionForm, Field, SubmitButton } from "../action-form";

export async function AccountNotifications({ locale, core }: { locale: string; core: CoreContext }) {
  const t = await getTranslations("notifications");
  const { settings, organizations } = await getAccountNotifications(core);
  const onOff = [
    { value: "on", label: t("on") },
    { value: "off", label: t("off") },
  ];
  const zones = [
    { value: "", label: t("timeZoneDefault") },
    ...timeZones()
      .filter((z) => z !== "UTC")
      .map((z) => ({ value: z, label: z })),
  ];
  return (
    <>
      <section className="card" aria-labelledby="notify-personal">
        <h2 id="notify-personal">{t("personal")}</h2>
        <p className="muted">{t("personalHint")}</p>
        <ActionForm action={updatePersonalNotificationsAction.bind(null, locale)} successMessage={t("saved")} testId="notify-personal-form">
          <Field
            name="locale"
            label={t("locale")}
            defaultValue={settings.locale ?? ""}
            options={[
              { value: "", label: t("localeDefault") },
              { value: "en", label: t("localeEn") },
              { value: "de", label: t("localeDe") },
            ]}
          />
          <Field name="timeZone" label={t("timeZone")} defaultValue={settings.timeZone ?? ""} options={zones} />
          <Field name="workflow" label={t("workflow")} defaultValue={settings.workflow ? "on" : "off"} options={onOff} />
          <p className="muted">{t("workflowHint")}</p>
          <SubmitButton>{t("save")}</SubmitButton>
        </ActionForm>
      </section>
      {organizations.length === 0 ? <p className="muted">{t("noOrganizations")}</p> : null}
      {organizations.map(({ org, weeklySummary, projects }) => (
        <section key={org.id} className="card" aria-labelledby={`notify-org-${org.id}`} data-testid={`notify-org-${org.slug}`}>
          <h2 id={`notify-org-${org.id}`}>{t("organization", { name: org.name })}</h2>
          <ActionForm
            action={setWeeklySummaryAction.bind(null, locale, org.slug)}
            successMessage={t("saved")}
            className="inline-form"
            testId="notify-summary-form"
          >
            <Field name="weeklySummary" label={t("weeklySummary")} defaultValue={weeklySummary ? "on" : "off"} options={onOff} />
            <SubmitButton variant="secondary">{t("save")}</SubmitButton>
          </ActionForm>
          <p className="muted">{t("weeklySummaryHint")}</p>
          {projects.length === 0 ? (
            <p className="muted">{t("noProjects")}</p>
          ) : (
            <table className="table">
              <caption>{t("projectsCaption", { name: org.name })}</caption>
              <tbody>
                {projects.map(({ project, email }) => (
                  <tr key={project.id} data-testid={`notify-project-${project.slug}`}>
                    <td>{project.name}</td>
                    <td className="actions">
                      <ActionForm action={setProjectEmailAction.bind(null, locale, project.id)} successMessage={t("saved")} className="inline-form">
                        <Field name="email" label={t("emailAlerts", { project: project.name })} defaultValue={email ? "on" : "off"} options={onOff} />
                        <SubmitButton variant="secondary">{t("save")}</SubmitButton>
                      </ActionForm>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
    </>
  );
}
