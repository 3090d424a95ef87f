"use server";
// Organization auth tokens: make one (the token is shown once) and revoke one, in the organization's settings.
import { revalidatePath } from "next/cache";
import { createOrgToken, revokeOrgToken } from "../../core/org-tokens";
import { getServices } from "../../runtime/services";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

const tokensPath = (locale: string, org: string) => `/${locale}/orgs/${org}/settings/tokens`;

export async function createOrgTokenAction(locale: string, orgSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  let token = "";
  const state = await act(locale, async (core) => {
    const { config, basePath } = getServices();
    token = (await createOrgToken(core, orgSlug, formObject(form), `${config.publicUrl}${basePath}`)).plaintext;
  });
  revalidatePath(tokensPath(locale, orgSlug));
  return state.status === "ok" ? { status: "ok", data: { token } } : state;
}

export async function revokeOrgTokenAction(locale: string, orgSlug: string, tokenId: number, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => revokeOrgToken(core, orgSlug, tokenId));
  revalidatePath(tokensPath(locale, orgSlug));
  return state;
}
