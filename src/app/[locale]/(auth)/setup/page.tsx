// First run: create the owner account and the first organization. Gone once any user exists.
import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { getServices } from "@/runtime/services";
import { setupAction } from "@/web/actions/auth.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";

export const dynamic = "force-dynamic";

export default async function SetupPage({ params: { locale } }: { params: { locale: string } }) {
  if ((await getServices().store.countUsers()) > 0) redirect(`/${locale}/sign-in`);
  const t = await getTranslations("setup");
  return (
    <>
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <ActionForm action={setupAction.bind(null, locale)} testId="setup-form">
        <Field name="name" label={t("name")} autoComplete="name" />
        <Field name="email" label={t("email")} type="email" autoComplete="email" required />
        <Field name="password" label={t("password")} type="password" autoComplete="new-password" required />
        <Field name="organization" label={t("organization")} required placeholder={t("organizationPlaceholder")} />
        <SubmitButton>{t("submit")}</SubmitButton>
      </ActionForm>
    </>
  );
}
