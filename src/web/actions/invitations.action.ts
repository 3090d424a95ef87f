"use server";
// Invitations by link: make one (the link is shown once), revoke one, and join through one, signed in or with an
// account made on the spot (then signed in through better-auth like the sign-in form).
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { AppError } from "../../core/errors";
import { acceptInvitation, acceptInvitationWithNewAccount, createInvitation, revokeInvitation } from "../../core/invitations";
import { DEFAULT_LOCALE, isLocale } from "../../i18n/routing";
import { getServices } from "../../runtime/services";
import { callAuth } from "../auth-bridge";
import { act, validationTranslator } from "./act";
import { type ActionState, formObject, runAction } from "./result";

const membersPath = (locale: string, org: string) => `/${locale}/orgs/${org}/settings/members`;

export async function createInvitationAction(locale: string, orgSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  let link = "";
  const state = await act(locale, async (core) => {
    const { secret } = await createInvitation(core, orgSlug, formObject(form));
    const { config, basePath } = getServices();
    link = new URL(`${basePath}/${locale}/invite/${secret}`, `${config.publicUrl}/`).toString();
  });
  revalidatePath(membersPath(locale, orgSlug));
  return state.status === "ok" ? { status: "ok", data: { link } } : state;
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

export async function joinWithNewAccountAction(locale: string, secret: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const lang = isLocale(locale) ? locale : DEFAULT_LOCALE;
  const { accounts, store } = getServices();
  const values = formObject(form);
  let org = "";
  const state = await runAction(async () => {
    org = (await acceptInvitationWithNewAccount(accounts, store, secret, values)).orgSlug;
    const signIn = await callAuth("/sign-in/email", { email: values.email, password: values.password });
    if (signIn.status !== 200) throw new AppError("bad_request", "Account created; sign in to continue");
  }, await validationTranslator(lang));
  if (state.status === "ok") redirect(`/${lang}/orgs/${org}`);
  return state;
}
