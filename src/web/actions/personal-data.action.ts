"use server";
// A person's data (issue 18): the erasure, posted from the confirmation form of the organization's "Personal data"
// settings; the core checks the permission and the input, and the counts come back as the form's message.
import { getTranslations } from "next-intl/server";
import { revalidatePath } from "next/cache";
import { erasePersonData } from "../../core/personal-data";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";
import { knownLocale } from "./locale";

export async function erasePersonDataAction(locale: string, orgSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const t = await getTranslations({ locale: knownLocale(locale), namespace: "personalData" });
  const state = await act(locale, async (core) => {
    const { totals, projects, more } = await erasePersonData(core, orgSlug, formObject(form));
    return { status: "ok", message: t(more ? "erasedMore" : "erased", { ...totals, projects: projects.length }) };
  });
  revalidatePath(`/${locale}/orgs/${orgSlug}/settings/privacy`);
  return state;
}
