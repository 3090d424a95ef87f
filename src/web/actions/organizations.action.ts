"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { createOrganization, deleteOrganization, updateOrganization } from "../../core/organizations";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

export async function createOrganizationAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  let slug = "";
  const state = await act(locale, async (core) => {
    slug = (await createOrganization(core, formObject(form))).slug;
  });
  if (state.status === "ok") redirect(`/${locale}/orgs/${slug}`);
  return state;
}

export async function updateOrganizationAction(locale: string, orgSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  let slug = orgSlug;
  const state = await act(locale, async (core) => {
    const { name = "", slug: newSlug = "" } = formObject(form);
    slug = (await updateOrganization(core, orgSlug, { name, slug: newSlug })).slug;
  });
  if (state.status === "ok" && slug !== orgSlug) redirect(`/${locale}/orgs/${slug}/settings`);
  revalidatePath(`/${locale}/orgs/${slug}`, "layout");
  return state;
}

export async function deleteOrganizationAction(locale: string, orgSlug: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => deleteOrganization(core, orgSlug));
  if (state.status === "ok") redirect(`/${locale}/orgs`);
  return state;
}
