// Instance settings, single sign-on (superusers): the OpenID Connect provider, from the environment (read-only) or set
// here. The client secret is never shown back: only its last four characters. Others get the 404 page; the core
// checks again.
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { instanceSsoSettings } from "@/core/instance-sso";
import { currentServices } from "@/runtime/services";
import { envSsoView, storedSecretHint } from "@/web/instance-sso-view";
import { removeInstanceSsoAction, saveInstanceSsoAction } from "@/web/actions/instance-sso.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";
import { InstanceTabs } from "../instance-tabs";

export const dynamic = "force-dynamic";

export default async function InstanceSsoPage({ params: { locale } }: { params: { locale: string } }) {
  const core = await requireCore(locale, `/${locale}/instance/sso`);
  if (!core.actor.user.isSuperuser) notFound();
  const t = await getTranslations("instanceSso");
  const services = await currentServices();
  const view = await loadOrNotFound(async () => instanceSsoSettings(core, envSsoView(services.config), storedSecretHint));
  const callback = `${services.config.publicUrl}${services.basePath}/api/auth/callback/sso`;
  return (
    <>
      <h1>{t("title")}</h1>
      <InstanceTabs locale={locale} current="sso" />
      <p className="muted">{t("intro")}</p>
      <p>
        {t("callback")} <code data-testid="sso-callback-url">{callback}</code>
      </p>
      {view.source === "environment" ? (
        <section className="card" data-testid="sso-env">
          <p>{t("fromEnvironment")}</p>
          <dl className="facts">
            <dt>{t("issuer")}</dt>
            <dd>
              <code>{view.issuer}</code>
            </dd>
            <dt>{t("clientId")}</dt>
            <dd>
              <code>{view.clientId}</code>
            </dd>
            <dt>{t("clientSecret")}</dt>
            <dd>{view.secretHint}</dd>
            <dt>{t("name")}</dt>
            <dd>{view.name}</dd>
          </dl>
        </section>
      ) : (
        <section className="card">
          {view.source === "settings" ? <p data-testid="sso-configured">{t("configured", { hint: view.secretHint ?? "…" })}</p> : <p>{t("unconfigured")}</p>}
          <p className="hint">{t("loopback")}</p>
          <ActionForm action={saveInstanceSsoAction.bind(null, locale)} successMessage={t("saved")} testId="instance-sso-form">
            <Field name="issuer" label={t("issuer")} type="url" defaultValue={view.issuer ?? ""} placeholder="https://login.example.com/realms/acme" required />
            <Field name="clientId" label={t("clientId")} defaultValue={view.clientId ?? ""} required />
            <Field name="clientSecret" label={view.source === "settings" ? t("clientSecretKeep") : t("clientSecret")} type="password" autoComplete="off" />
            <Field name="name" label={t("name")} defaultValue={view.name ?? ""} placeholder="Acme ID" required />
            <SubmitButton>{t("save")}</SubmitButton>
          </ActionForm>
          {view.source === "settings" ? (
            <ActionForm action={removeInstanceSsoAction.bind(null, locale)} testId="instance-sso-remove-form">
              <SubmitButton variant="danger">{t("remove")}</SubmitButton>
            </ActionForm>
          ) : null}
        </section>
      )}
    </>
  );
}
