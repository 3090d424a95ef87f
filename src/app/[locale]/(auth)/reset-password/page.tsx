// The page a password-reset mail links to (?token=…): choose the new password. better-auth checks the token (an hour,
// once) when the form is sent; a page without a token points back to "forgot password".
import { getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import { resetPasswordAction } from "@/web/actions/mail.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";

export const dynamic = "force-dynamic";

export default async function ResetPasswordPage({
  params: { locale },
  searchParams,
}: {
  params: { locale: string };
  searchParams: { token?: string | string[] };
}) {
  const t = await getTranslations("resetPassword");
  const token = typeof searchParams.token === "string" ? searchParams.token : "";
  return (
    <>
      <h1>{t("title")}</h1>
      {token ? (
        <>
          <p className="muted">{t("intro")}</p>
          <ActionForm action={resetPasswordAction.bind(null, locale)} testId="reset-password-form">
            <input type="hidden" name="token" value={token} />
            <Field name="password" label={t("password")} type="password" autoComplete="new-password" required />
            <Field name="confirm" label={t("confirm")} type="password" autoComplete="new-password" required />
            <SubmitButton>{t("submit")}</SubmitButton>
          </ActionForm>
        </>
      ) : (
        <p>{t("missingLink")}</p>
      )}
      <p>
        <LocaleLink locale={locale} href="/forgot-password">
          {t("requestNew")}
        </LocaleLink>
      </p>
    </>
  );
}
