import { getTranslations } from "next-intl/server";
import type { OrgAccess } from "@/core/access";
import type { CoreContext } from "@/core/context";
import { buildDsn, listKeys } from "@/core/keys";
import { can } from "@/core/permissions";
import { getServices } from "@/runtime/services";
import type { Project } from "@/storage/ports";
import { createKeyAction, deleteKeyAction, renameKeyAction, setKeyActiveAction } from "@/web/actions/keys.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { CopyField } from "@/web/components/copy-field";

export async function KeysSection({ core, access, project, locale }: { core: CoreContext; access: OrgAccess; project: Project; locale: string }) {
  const t = await getTranslations("projectSettings.keys");
  const { keys } = await listKeys(core, access.org.slug, project.slug);
  const { config, basePath } = getServices();
  const org = access.org.slug;
  return (
    <>
      {keys.length === 0 ? <p className="muted">{t("empty")}</p> : null}
      <ul className="key-list" data-testid="key-list">
        {keys.map((k) => (
          <li key={k.id} className="card" data-testid={`key-${k.publicKey}`}>
            <h2>
              {k.label} {k.isActive ? null : <span className="badge warn">{t("disabled")}</span>}
            </h2>
            <CopyField value={buildDsn(config.publicUrl, basePath, k, project).public} label={t("dsn")} copyLabel={t("copy")} copiedLabel={t("copied")} />
            {can(access.role, "key:update") ? (
              <div className="row">
                <ActionForm action={renameKeyAction.bind(null, locale, org, project.slug, k.publicKey)} className="inline-form">
                  <Field name="label" label={t("label")} defaultValue={k.label} required />
                  <SubmitButton variant="secondary">{t("rename")}</SubmitButton>
                </ActionForm>
                <ActionForm action={setKeyActiveAction.bind(null, locale, org, project.slug, k.publicKey, !k.isActive)} className="inline-form">
                  <SubmitButton variant="secondary">{k.isActive ? t("disable") : t("enable")}</SubmitButton>
                </ActionForm>
                {can(access.role, "key:delete") ? (
                  <ActionForm action={deleteKeyAction.bind(null, locale, org, project.slug, k.publicKey)} className="inline-form">
                    <SubmitButton variant="danger">{t("revoke")}</SubmitButton>
                  </ActionForm>
                ) : null}
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {can(access.role, "key:create") ? (
        <section className="card">
          <h2>{t("createTitle")}</h2>
          <ActionForm action={createKeyAction.bind(null, locale, org, project.slug)} testId="create-key-form">
            <Field name="label" label={t("label")} required />
            <SubmitButton>{t("create")}</SubmitButton>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
