"use server";
// Instance settings: a superuser creates an account (the core refuses anyone else).
import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { createAccount } from "../../core/accounts";
import { getServices } from "../../runtime/services";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";
import { knownLocale } from "./locale";

export async function createAccountAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const lang = knownLocale(locale);
  const t = await getTranslations({ locale: lang, namespace: "instance" });
  const { isSuperuser, ...fields } = formObject(form);
  let created = "";
  const state = await act(lang, async (core) => {
    created = (await createAccount(core, getServices().accounts, { ...fields, isSuperuser: isSuperuser === "on" })).email;
  });
  if (state.status !== "ok") return state;
  revalidatePath(`/${lang}/instance/users`);
  return { status: "ok", message: t("created", { email: created }) };
}
