"use server";
// Instance settings: a superuser lists the hosts notifications may reach despite private addresses (the core refuses
// anyone else).
import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { setNotificationAllowedHosts } from "../../core/notification-hosts";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";
import { knownLocale } from "./locale";

export async function setNotificationHostsAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const lang = knownLocale(locale);
  const t = await getTranslations({ locale: lang, namespace: "notificationHosts" });
  const state = await act(lang, async (core) => {
    await setNotificationAllowedHosts(core, formObject(form));
  });
  if (state.status !== "ok") return state;
  revalidatePath(`/${lang}/instance/users`);
  return { status: "ok", message: t("saved") };
}
