import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import { currentServices, getServices } from "@/runtime/services";
import { signInAction } from "@/web/actions/auth.action";
import { ssoSignInAction } from "@/web/actions/sso.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { getCurrentUser } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function SignInPage({
  params: { locale },
  searchParams,
}: {
  params: { locale: string };
  searchParams: { next?: string; reset?: string };
}) {
  if ((await getServices().store.countUsers()) === 0) redirect(`/${locale}/setup`);
  if (await getCurrentUser()) redirect(`/${locale}/orgs`);
  const t = await getTranslations("signIn");
  const tr = await getTranslations("resetPassword");
  const { sso } = await currentServices();
  const next = typeof searchParams.next === "string" ? searchParams.next : "";
  return (
    <>
      <h1>{t("title")}</h1>
      {searchParams.reset === "done" ? (
        <p className="form-ok" role="status">
          {tr("done")}
        </p>
      ) : null}
      {sso ? (
        <ActionForm action={ssoSignInAction.bind(null, locale)} testId="sso-sign-in-form">
          <input type="hidden" name="next" value={next} />
          <SubmitButton>{t("withProvider", { name: sso.name })}</SubmitButton>
        </ActionForm>
      ) : null}
      <ActionForm action={signInAction.bind(null, locale)} testId="sign-in-form">
        <input type="hidden" name="next" value={next} />
        <Field name="email" label={t("email")} type="email" autoComplete="username" required />
        <Field name="password" label={t("password")} type="password" autoComplete="current-password" required />
        <SubmitButton>{t("submit")}</SubmitButton>
      </ActionForm>
      <p>
        <LocaleLink locale={locale} href="/forgot-password">
          {t("forgot")}
        </LocaleLink>
      </p>
    </>
  );
}
