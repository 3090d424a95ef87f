// Instance settings, e-mail (superusers): how outgoing mail is set up (server, security, user and sender; never the
// password), and a test e-mail showing the SMTP server's answer. Others get the 404 page; the core checks again.
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { mailSettings } from "@/core/instance-mail";
import { getServices } from "@/runtime/services";
import { sendTestMailAction } from "@/web/actions/mail.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";
import { InstanceTabs } from "../instance-tabs";

export const dynamic = "force-dynamic";

export default async function InstanceMailPage({ params: { locale } }: { params: { locale: string } }) {
  const core = await requireCore(locale, `/${locale}/instance/mail`);
  if (!core.actor.user.isSuperuser) notFound();
  const t = await getTranslations("instanceMail");
  const settings = await loadOrNotFound(async () => mailSettings(core, getServices().mailer));
  return (
    <>
      <h1>{t("title")}</h1>
      <InstanceTabs locale={locale} current="mail" />
      <p className="muted">{t("intro")}</p>
      {settings ? (
        <section className="card" data-testid="mail-settings">
          <p>{t("configured")}</p>
          <dl className="facts">
            <dt>{t("server")}</dt>
            <dd>
              <code>{`${settings.host}:${settings.port}`}</code>
            </dd>
            <dt>{t("security")}</dt>
            <dd>{settings.secure ? t("tls") : t("starttls")}</dd>
            <dt>{t("user")}</dt>
            <dd>{settings.user ?? t("noUser")}</dd>
            <dt>{t("from")}</dt>
            <dd>{settings.from}</dd>
          </dl>
        </section>
      ) : (
        <p className="card" data-testid="mail-unconfigured">
          {t("unconfigured")}
        </p>
      )}
      {settings ? (
        <section className="card">
          <h2>{t("testTitle")}</h2>
          <p className="muted">{t("testHint")}</p>
          <ActionForm action={sendTestMailAction.bind(null, locale)} testId="test-mail-form">
            <Field name="to" label={t("to")} type="email" autoComplete="email" defaultValue={core.actor.user.email} required />
            <SubmitButton>{t("send")}</SubmitButton>
          </ActionForm>
        </section>
      ) : null}
    </>
  );
}
