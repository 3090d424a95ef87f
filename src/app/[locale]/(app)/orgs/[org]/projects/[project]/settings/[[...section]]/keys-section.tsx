import { getTranslations } from "next-intl/server";
import type { OrgAccess } from "@/core/access";
import type { CoreContext } from "@/core/context";
import { buildDsn, listKeys } from "@/core/keys";
import { can } from "@/core/permissions";
import { QUOTA_CATEGORY_NAMES } from "@/protocol/categories";
import { getServices } from "@/runtime/services";
import type { Project } from "@/storage/ports";
import { createKeyAction, deleteKeyAction, renameKeyAction, setKeyActiveAction, setKeyRateLimitAction } from "@/web/actions/keys.action";
import { LocaleLink } from "@/i18n/locale-link";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { CopyField } from "@/web/components/copy-field";

export async function KeysSection({ core, access, project, locale }: { core: CoreContext; access: OrgAccess; project: Project; locale: string }) {
  const t = await getTranslations("projectSettings.keys");
  const tr = await getTranslations("rateLimit");
  /** Windows offered in the form; a quota set through the API with another window is offered as it is. */
  const windows = [60, 3600, 86400];
  const windowLabel = (w: number) => tr(`window.${windows.includes(w) ? w : "other"}`, { seconds: w });
  const windowOptions = (current: number | undefined) =>
    [...new Set([...windows, ...(current ? [current] : [])])].map((w) => ({ value: String(w), label: windowLabel(w) }));
  const { keys } = await listKeys(core, access.org.slug, project.slug);
  const { config, basePath } = getServices();
  const org = access.org.slug;
  return (
    <>
      <p>
        {/* The setup page shows the DSN filled into the SDK guide of the project's platform. */}
        <LocaleLink locale={locale} href={`/orgs/${org}/projects/${project.slug}`} data-testid="sdk-setup-link">
          {tr("setupLink")}
        </LocaleLink>
      </p>
      {keys.length === 0 ? <p className="muted">{t("empty")}</p> : null}
      <ul className="key-list" data-testid="key-list">
        {keys.map((k) => (
          <li key={k.id} className="card" data-testid={`key-${k.publicKey}`}>
            <h2>
              {k.label} {k.isActive ? null : <span className="badge warn">{t("disabled")}</span>}
            </h2>
            <CopyField value={buildDsn(config.publicUrl, basePath, k, project).public} label={t("dsn")} copyLabel={t("copy")} copiedLabel={t("copied")} />
            <p className="muted" data-testid={`rate-limit-${k.publicKey}`}>
              {k.rateLimit ? tr("current", { count: k.rateLimit.count, window: windowLabel(k.rateLimit.windowSeconds) }) : tr("none")}
            </p>
            {Object.keys(k.quotas).length > 0 ? (
              <ul className="muted" data-testid={`quotas-${k.publicKey}`}>
                {QUOTA_CATEGORY_NAMES.flatMap((c) => {
                  const q = c === "error" ? undefined : k.quotas[c];
                  return q ? [<li key={c}>{tr("quota", { category: tr(`categories.${c}`), count: q.count, window: windowLabel(q.windowSeconds) })}</li>] : [];
                })}
              </ul>
            ) : null}
            {can(access.role, "key:update") ? (
              <div className="row">
                <ActionForm action={renameKeyAction.bind(null, locale, org, project.slug, k.publicKey)} className="inline-form">
                  <Field name="label" label={t("label")} defaultValue={k.label} required />
                  <SubmitButton variant="secondary">{t("rename")}</SubmitButton>
                </ActionForm>
                <ActionForm action={setKeyActiveAction.bind(null, locale, org, project.slug, k.publicKey, !k.isActive)} className="inline-form">
                  <SubmitButton variant="secondary">{k.isActive ? t("disable") : t("enable")}</SubmitButton>
                </ActionForm>
                <ActionForm
                  action={setKeyRateLimitAction.bind(null, locale, org, project.slug, k.publicKey)}
                  className="inline-form"
                  successMessage={tr("saved")}
                  testId={`rate-limit-form-${k.publicKey}`}
                >
                  <Field
                    name="category"
                    label={tr("category")}
                    defaultValue="error"
                    options={QUOTA_CATEGORY_NAMES.map((c) => ({ value: c, label: tr(`categories.${c}`) }))}
                  />
                  <Field
                    name="count"
                    label={tr("count")}
                    type="number"
                    defaultValue={k.rateLimit ? String(k.rateLimit.count) : ""}
                    placeholder={tr("unlimited")}
                  />
                  <Field
                    name="window"
                    label={tr("per")}
                    defaultValue={String(k.rateLimit?.windowSeconds ?? 60)}
                    options={windowOptions(k.rateLimit?.windowSeconds)}
                  />
                  <SubmitButton variant="secondary">{tr("save")}</SubmitButton>
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
