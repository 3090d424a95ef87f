// Where an invitation link leads: who invites which address to which role. Signed in as that address: join. Signed in
// as another: say so. Signed out: one password field, a new password when the address has no account yet, else that
// account's own (the page never tells which). A used or expired link says so; an unknown one is not found.
import { getTranslations } from "next-intl/server";
import { previewInvitation } from "@/core/invitations";
import { getServices } from "@/runtime/services";
import { acceptInvitationAction, joinWithPasswordAction } from "@/web/actions/invitations.action";
import { ActionForm, Field, SubmitButton } from "@/web/components/action-form";
import { loadOrNotFound } from "@/web/load";
import { getCurrentUser } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function InvitePage({ params }: { params: { locale: string; secret: string } }) {
  const invitation = await loadOrNotFound(() => previewInvitation(getServices().store, params.secret));
  const user = await getCurrentUser();
  const t = await getTranslations("invite");
  const tr = await getTranslations("roles");
  const role = tr(invitation.role);
  return (
    <>
      <h1>{t("title", { org: invitation.organization.name })}</h1>
      {!invitation.open ? (
        <p className="form-error" data-testid="invite-closed">
          {t("closed")}
        </p>
      ) : user && user.email.toLowerCase() === invitation.email ? (
        <>
          <p>{t("asUser", { email: user.email, role })}</p>
          <ActionForm action={acceptInvitationAction.bind(null, params.locale, params.secret)} testId="accept-invite-form">
            <SubmitButton>{t("join")}</SubmitButton>
          </ActionForm>
        </>
      ) : user ? (
        <p className="form-error" data-testid="invite-other-address">
          {t("otherAddress", { invited: invitation.email, email: user.email })}
        </p>
      ) : (
        <>
          <p>{t("forAddress", { email: invitation.email, role })}</p>
          <p className="muted">{t("passwordHint")}</p>
          <ActionForm action={joinWithPasswordAction.bind(null, params.locale, params.secret)} testId="invite-join-form">
            <div className="field">
              <label htmlFor="invite-email">{t("email")}</label>
              <input id="invite-email" type="email" value={invitation.email} readOnly autoComplete="username" />
            </div>
            <Field name="name" label={t("name")} autoComplete="name" />
            <Field name="password" label={t("password")} type="password" autoComplete="current-password" required />
            <SubmitButton>{t("joinWithPassword")}</SubmitButton>
          </ActionForm>
        </>
      )}
    </>
  );
}
