import { getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import { currentServices } from "@/runtime/services";
import { signInAction } from "@/web/actions/auth.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";

export const dynamic = "force-dynamic";

/** better-auth's error codes of a failed single sign-on, and the message each gets. */
const KNOWN: Record<string, string> = {
  account_not_linked: "notLinked",
  email_not_verified: "notVerified",
  email_does_not_match: "emailMismatch",
  account_already_linked_to_different_user: "linkedElsewhere",
  unable_to_get_user_info: "invalidToken",
  access_denied: "denied",
  signup_disabled: "notVerified",
};

/**
 * Where a single sign-on that did not sign anyone in lands (better-auth's errorCallbackURL and errorURL), with the
 * reason. For an e-mail that has a password account: the password form, after which the person links the provider.
 */
export default async function SsoErrorPage({ params: { locale }, searchParams }: { params: { locale: string }; searchParams: { error?: unknown } }) {
  const t = await getTranslations("signIn.sso");
  const ts = await getTranslations("signIn");
  const name = (await currentServices()).sso?.name ?? t("fallbackName");
  const code = typeof searchParams.error === "string" ? searchParams.error.slice(0, 100) : "";
  const reason = KNOWN[code] ?? "failed";
  return (
    <>
      <h1>{t("errorTitle", { name })}</h1>
      <p className="form-error" role="alert" data-testid="sso-error" data-code={code.replace(/[^a-z_]/g, "")}>
        {t(`errors.${reason}`, { name })}
      </p>
      {reason === "notLinked" ? (
        <section className="card" aria-labelledby="sso-link-title">
          <h2 id="sso-link-title">{t("linkTitle", { name })}</h2>
          <p>{t("linkIntro", { name })}</p>
          <ActionForm action={signInAction.bind(null, locale)} testId="sso-link-sign-in-form">
            <input type="hidden" name="link" value="sso" />
            <Field name="email" label={ts("email")} type="email" autoComplete="username" required />
            <Field name="password" label={ts("password")} type="password" autoComplete="current-password" required />
            <SubmitButton>{t("linkSubmit")}</SubmitButton>
          </ActionForm>
        </section>
      ) : null}
      <p>
        <LocaleLink locale={locale} href="/sign-in">
          {t("back")}
        </LocaleLink>
      </p>
    </>
  );
}
