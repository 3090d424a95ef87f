"use server";
// Invitations: invite an address (the link is shown once), revoke one, and join through one: signed in as the invited
// address, or signed out with a password (a new account for that address, or the password of its existing one, checked
// by better-auth's sign-in like the sign-in form).
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { CLIENT_IP_HEADER } from "../../auth/create-auth";
import { AppError } from "../../core/errors";
import { acceptInvitation, createInvitation, joinWithNewAccount, revokeInvitation } from "../../core/invitations";
import { getServices } from "../../runtime/services";
import { callAuth } from "../auth-bridge";
import { act, validationTranslator } from "./act";
import { type ActionState, formObject, runAction, isForm, NOT_A_FORM } from "./result";
import { knownLocale } from "./locale";

const membersPath = (locale: string, org: string) => `/${locale}/orgs/${org}/settings/members`;

/**
 * The same answer whether the address has an account or not: who was invited, whether the link went out by mail (in
 * the inviter's language), and the link to pass on.
 */
export async function createInvitationAction(locale: string, orgSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const lang = knownLocale(locale);
  const t = await getTranslations({ locale: lang, namespace: "invitations" });
  let result: ActionState = { status: "ok" };
  const state = await act(lang, async (core) => {
    const { config, basePath, mailer } = getServices();
    const linkFor = (secret: string) => new URL(`${basePath}/${lang}/invite/${secret}`, `${config.publicUrl}/`).toString();
    const site = { publicUrl: config.publicUrl, basePath };
    const { invitation, secret, mail } = await createInvitation(core, orgSlug, formObject(form), { mailer, locale: lang, site, link: linkFor });
    const email = invitation.email ?? "";
    const notice = mail.status === "sent" ? t("mailed", { email }) : mail.status === "failed" ? t("mailFailed", { error: mail.error }) : t("mailUnavailable");
    result = { status: "ok", message: t("created", { email }), notice, data: { link: linkFor(secret) } };
  });
  revalidatePath(membersPath(lang, orgSlug));
  return state.status === "ok" ? result : state;
}

export async function revokeInvitationAction(locale: string, orgSlug: string, invitationId: number, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => revokeInvitation(core, orgSlug, invitationId));
  revalidatePath(membersPath(locale, orgSlug));
  return state;
}

export async function acceptInvitationAction(locale: string, secret: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  let org = "";
  const state = await act(locale, async (core) => {
    org = await acceptInvitation(core, secret);
  });
  if (state.status === "ok") redirect(`/${locale}/orgs/${org}`);
  return state;
}

export async function joinWithPasswordAction(locale: string, secret: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const lang = knownLocale(locale);
  const t = await getTranslations({ locale: lang, namespace: "invite" });
  const { accounts, store } = getServices();
  const values = formObject(form);
  const ip = headers().get(CLIENT_IP_HEADER);
  let org = "";
  let secondFactor = false;
  const state = await runAction(
    async () => {
      const { email, joined } = await joinWithNewAccount(accounts, store, secret, values, ip);
      const signIn = await callAuth("/sign-in/email", { email, password: values.password ?? "" });
      // An account with two-factor on: the password is right, and the session waits for the code (sign-in/two-factor).
      secondFactor = signIn.body?.twoFactorRedirect === true;
      if (signIn.status === 429) throw new AppError("rate_limited", t("tooMany"));
      if (signIn.status !== 200) throw new AppError("bad_request", t("wrongPassword"), { password: [t("wrongPassword")] });
      if (joined) {
        org = joined;
        return;
      }
      // Signed in as the account the address already had: it accepts, as when signed in before opening the link.
      const user = await store.getUserByEmail(email);
      if (!user) throw new AppError("bad_request", t("wrongPassword"));
      org = await acceptInvitation({ store, actor: { user }, ip }, secret);
    },
    await validationTranslator(lang),
  );
  if (state.status === "ok") redirect(secondFactor ? `/${lang}/sign-in/two-factor?next=${encodeURIComponent(`/${lang}/orgs/${org}`)}` : `/${lang}/orgs/${org}`);
  return state;
}
