// Where an invitation link leads: who invites, to which role; join when signed in, else make an account here (or sign
// in first and come back). A used or expired link says so; an unknown one is not found.
import { getTranslations } from "next-intl/server";
import { LocaleLink } from "@/i18n/locale-link";
import { previewInvitation } from "@/core/invitations";
import { getServices } from "@/runtime/services";
import { acceptInvitationAction, joinWithNewAccountAction } from "@/web/actions/invitations.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { loadOrNotFound } from "@/web/load";
import { getCurrentUser } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function InvitePage({ params }: { params: { locale: string; secret: string } }) {
  const invitation = await loadOrNotFound(() => previewInvitation(getServices().store, params.secret));
  const user = await getCurrentUser();
  const t = await getTranslations("invite");
  const tr = await getTranslations("roles");
  const here = `/${params.locale}/invite/${params.secret}`;
  return (
    <>
      <h1>{t("title", { org: invitation.organization.name })}</h1>
      {!invitation.open ? (
        <p className="form-error" data-testid="invite-closed">
          {t("closed")}
        </p>
      ) : user ? (
        <>
          <p>{t("asUser", { email: user.email, role: tr(invitation.role) })}</p>
          <ActionForm action={acceptInvitationAction.bind(null, params.locale, params.secret)} testId="accept-invite-form">
            <SubmitButton>{t("join")}</SubmitButton>
          </ActionForm>
        </>
      ) : (
        <>
          <p>{t("newAccount", { role: tr(invitation.role) })}</p>
          <ActionForm action={joinWithNewAccountAction.bind(null, params.locale, params.secret)} testId="invite-signup-form">
            <Field name="email" label={t("email")} type="email" autoComplete="username" required />
            <Field name="name" label={t("name")} autoComplete="name" />
            <Field name="password" label={t("password")} type="password" autoComplete="new-password" required />
            <SubmitButton>{t("createAndJoin")}</SubmitButton>
          </ActionForm>
          <p className="muted">
            {t("haveAccount")} <LocaleLink locale={params.locale} href={`/sign-in?next=${encodeURIComponent(here)}`}>{t("signIn")}</LocaleLink>
          </p>
        </>
      )}
    </>
  );
}
