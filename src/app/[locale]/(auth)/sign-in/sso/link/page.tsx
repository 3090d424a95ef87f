import { redirect } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { currentServices } from "@/runtime/services";
import { ssoLinkAction } from "@/web/actions/sso.action";
import { ActionForm, SubmitButton } from "@/web/components/action-form";
import { getCurrentUser } from "@/web/session";

export const dynamic = "force-dynamic";

/** After the password: the signed-in person confirms linking the provider, which then asks them to sign in there. */
export default async function SsoLinkPage({ params: { locale } }: { params: { locale: string } }) {
  const user = await getCurrentUser();
  if (!user) redirect(`/${locale}/sign-in?next=${encodeURIComponent(`/${locale}/sign-in/sso/link`)}`);
  const { sso } = await currentServices();
  if (!sso) redirect(`/${locale}/orgs`);
  const t = await getTranslations("signIn.sso");
  return (
    <>
      <h1>{t("linkTitle", { name: sso.name })}</h1>
      <p>{t("linkConfirm", { name: sso.name, email: user.email })}</p>
      <ActionForm action={ssoLinkAction.bind(null, locale)} testId="sso-link-form">
        <SubmitButton>{t("linkContinue", { name: sso.name })}</SubmitButton>
      </ActionForm>
    </>
  );
}
