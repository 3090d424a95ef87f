import { getTranslations } from "next-intl/server";
import type { OrgAccess } from "@/core/access";
import type { CoreContext } from "@/core/context";
import { getOrgSsoSettings } from "@/core/sso";
import { currentServices } from "@/runtime/services";
import { orgSsoAction } from "@/web/actions/sso.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";

/** Settings → General, owners only: "require SSO" and auto-join by domain (core/sso.ts checks and records them). */
export async function SsoSection({ core, access, locale }: { core: CoreContext; access: OrgAccess; locale: string }) {
  const t = await getTranslations("orgSso");
  const tg = await getTranslations("orgSettings.general");
  const { sso } = await currentServices();
  const settings = await getOrgSsoSettings(core, access.org.slug);
  return (
    <section className="card" aria-labelledby="org-sso-title">
      <h2 id="org-sso-title">{t("title")}</h2>
      {sso ? <p>{t("provider", { name: sso.name })}</p> : <p>{t("unconfigured")}</p>}
      <ActionForm action={orgSsoAction.bind(null, locale, access.org.slug)} successMessage={tg("saved")} testId="org-sso-form">
        <p>
          <label className="check-field">
            <input type="checkbox" name="requireSso" defaultChecked={settings.requireSso} data-testid="require-sso" /> {t("requireSso")}
          </label>
        </p>
        <p className="hint">{t("requireSsoHint")}</p>
        <Field name="autoJoinDomains" type="textarea" label={t("domains")} defaultValue={settings.autoJoinDomains.join("\n")} placeholder="example.com" />
        <p className="hint">{t("domainsHint")}</p>
        <Field
          name="autoJoinRole"
          label={t("role")}
          defaultValue={settings.autoJoinRole}
          options={(["admin", "member", "viewer"] as const).map((r) => ({ value: r, label: t(`roles.${r}`) }))}
        />
        <SubmitButton>{tg("save")}</SubmitButton>
      </ActionForm>
    </section>
  );
}
