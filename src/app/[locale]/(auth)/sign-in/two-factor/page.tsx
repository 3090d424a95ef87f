// The second step of a sign-in with two-factor on: a code from the authenticator app, or a recovery code.
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import { verifySignInCodeAction } from "@/web/actions/two-factor.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { getCurrentUser } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function TwoFactorSignInPage({ params: { locale }, searchParams }: { params: { locale: string }; searchParams: { next?: string } }) {
  if (await getCurrentUser()) redirect(`/${locale}/orgs`);
  const t = await getTranslations("signIn.twoFactor");
  const next = typeof searchParams.next === "string" ? searchParams.next : "";
  return (
    <>
      <h1>{t("title")}</h1>
      <p>{t("intro")}</p>
      <ActionForm action={verifySignInCodeAction.bind(null, locale, "totp")} testId="two-factor-code-form">
        <input type="hidden" name="next" value={next} />
        <Field name="code" label={t("code")} autoComplete="one-time-code" required />
        <SubmitButton>{t("submit")}</SubmitButton>
      </ActionForm>
      <section aria-labelledby="recovery-title">
        <h2 id="recovery-title">{t("recoveryTitle")}</h2>
        <p>{t("recoveryIntro")}</p>
        <ActionForm action={verifySignInCodeAction.bind(null, locale, "recovery")} testId="two-factor-recovery-form">
          <input type="hidden" name="next" value={next} />
          <Field name="code" label={t("recoveryCode")} autoComplete="off" required />
          <SubmitButton>{t("recoverySubmit")}</SubmitButton>
        </ActionForm>
      </section>
      <p>
        <LocaleLink locale={locale} href="/sign-in">
          {t("startOver")}
        </LocaleLink>
      </p>
    </>
  );
}
