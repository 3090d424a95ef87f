"use server";
// Instance settings: a superuser creates an account (the core refuses anyone else).
import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { createAccount } from "../../core/accounts";
import { DEFAULT_LOCALE, isLocale } from "../../i18n/routing";
import { getServices } from "../../runtime/services";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

export async function createAccountAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const lang = isLocale(locale) ? locale : DEFAULT_LOCALE;
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
