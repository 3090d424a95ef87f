"use server";
import { revalidatePath } from "next/cache";
import { createToken, deleteToken } from "../../core/tokens";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

/** The form's fields, with every checked scope (checkboxes named "scopes") as a list. */
export async function createTokenAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  let plaintext = "";
  const scopes = form.getAll("scopes").filter((s): s is string => typeof s === "string");
  const state = await act(locale, async (core) => {
    plaintext = (await createToken(core, { ...formObject(form), scopes })).plaintext;
  });
  revalidatePath(`/${locale}/account/tokens`);
  return state.status === "ok" ? { status: "ok", data: { token: plaintext } } : state;
}

export async function deleteTokenAction(locale: string, tokenId: number, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => deleteToken(core, tokenId));
  revalidatePath(`/${locale}/account/tokens`);
  return state;
}
