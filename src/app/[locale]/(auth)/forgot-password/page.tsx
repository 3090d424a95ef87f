// "Forgot your password?": asks for the address and has a reset link mailed to it (if it has an account: the answer
// does not say). Without outgoing mail, it says so and sends people to an administrator.
import { getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import { getServices } from "@/runtime/services";
import { requestPasswordResetAction } from "@/web/actions/mail.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";

export const dynamic = "force-dynamic";

export default async function ForgotPasswordPage({ params: { locale } }: { params: { locale: string } }) {
  const t = await getTranslations("forgotPassword");
  const available = getServices().mailer.available;
  return (
    <>
      <h1>{t("title")}</h1>
      {available ? (
        <>
          <p className="muted">{t("intro")}</p>
          <ActionForm action={requestPasswordResetAction.bind(null, locale)} testId="forgot-password-form">
            <Field name="email" label={t("email")} type="email" autoComplete="username" required />
            <SubmitButton>{t("submit")}</SubmitButton>
          </ActionForm>
        </>
      ) : (
        <p data-testid="mail-unavailable">{t("unavailable")}</p>
      )}
      <p>
        <LocaleLink locale={locale} href="/sign-in">
          {t("backToSignIn")}
        </LocaleLink>
      </p>
    </>
  );
}
