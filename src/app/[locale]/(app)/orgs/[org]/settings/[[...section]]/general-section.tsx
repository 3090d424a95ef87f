import { getTranslations } from "next-intl/server";
import type { OrgAccess } from "@/core/access";
import type { CoreContext } from "@/core/context";
import { getAlertsMemberWrite } from "@/core/alert-rules";
import { can } from "@/core/permissions";
import { setAlertsMemberWriteAction } from "@/web/actions/alert-rules.action";
import { deleteOrganizationAction, updateOrganizationAction } from "@/web/actions/organizations.action";
import { setRequireTwoFactorAction } from "@/web/actions/two-factor.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { SsoSection } from "./sso-section";

export async function GeneralSection({ core, access, locale }: { core: CoreContext; access: OrgAccess; locale: string }) {
  const t = await getTranslations("orgSettings.general");
  const ta = await getTranslations("alerts");
  const { org, role } = access;
  if (!can(role, "org:update")) {
    return (
      <dl className="facts">
        <dt>{t("name")}</dt>
        <dd>{org.name}</dd>
        <dt>{t("slug")}</dt>
        <dd>{org.slug}</dd>
      </dl>
    );
  }
  return (
    <>
      <section className="card">
        <ActionForm action={updateOrganizationAction.bind(null, locale, org.slug)} successMessage={t("saved")} testId="org-general-form">
          <Field name="name" label={t("name")} defaultValue={org.name} required />
          <Field name="slug" label={t("slug")} defaultValue={org.slug} required />
          <SubmitButton>{t("save")}</SubmitButton>
        </ActionForm>
      </section>
      <section className="card" aria-labelledby="alerts-member-write-title">
        <h2 id="alerts-member-write-title">{ta("memberWriteTitle")}</h2>
        <ActionForm action={setAlertsMemberWriteAction.bind(null, locale, org.slug)} successMessage={t("saved")} testId="org-alerts-member-write-form">
          <p>
            <label className="check-field">
              <input type="checkbox" name="alertsMemberWrite" defaultChecked={await getAlertsMemberWrite(core, org.slug)} data-testid="alerts-member-write" />{" "}
              {ta("memberWrite")}
            </label>
          </p>
          <SubmitButton>{t("save")}</SubmitButton>
        </ActionForm>
      </section>
      {can(role, "org:security") ? (
        <section className="card" aria-labelledby="require-two-factor-title">
          <h2 id="require-two-factor-title">{t("requireTwoFactorTitle")}</h2>
          <ActionForm action={setRequireTwoFactorAction.bind(null, locale, org.slug)} successMessage={t("saved")} testId="org-require-two-factor-form">
            <p>{t("requireTwoFactorHint")}</p>
            <p>
              <label className="check-field">
                <input type="checkbox" name="requireTwoFactor" defaultChecked={org.requireTwoFactor} data-testid="require-two-factor" /> {t("requireTwoFactor")}
              </label>
            </p>
            <SubmitButton>{t("save")}</SubmitButton>
          </ActionForm>
        </section>
      ) : null}
      {can(role, "org:security") ? <SsoSection core={core} access={access} locale={locale} /> : null}
      {can(role, "org:delete") ? (
        <section className="card danger-zone">
          <h2>{t("deleteTitle")}</h2>
          <p>{t("deleteBody")}</p>
          <ActionForm action={deleteOrganizationAction.bind(null, locale, org.slug)} testId="org-delete-form">
            <SubmitButton variant="danger">{t("delete")}</SubmitButton>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
