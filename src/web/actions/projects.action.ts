"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { createProject, deleteProject, updateProject } from "../../core/projects";
import { getServices } from "../../runtime/services";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

export async function createProjectAction(locale: string, orgSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  let slug = "";
  const state = await act(locale, async (core) => {
    slug = (await createProject(core, orgSlug, formObject(form))).slug;
  });
  if (state.status === "ok") redirect(`/${locale}/orgs/${orgSlug}/projects/${slug}`);
  return state;
}

export async function updateProjectAction(locale: string, orgSlug: string, projectSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  let slug = projectSlug;
  const state = await act(locale, async (core) => {
    const { name = "", slug: newSlug = "", platform } = formObject(form);
    slug = (await updateProject(core, orgSlug, projectSlug, { name, slug: newSlug, platform })).slug;
  });
  if (state.status === "ok" && slug !== projectSlug) redirect(`/${locale}/orgs/${orgSlug}/projects/${slug}/settings`);
  revalidatePath(`/${locale}/orgs/${orgSlug}`, "layout");
  return state;
}

/** Turns fetching of JavaScript sources and source maps from public URLs on or off (the form's `enabled`: "on" or absent). */
export async function setSourceFetchingAction(locale: string, orgSlug: string, projectSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await updateProject(core, orgSlug, projectSlug, { scrapeJavaScript: form.get("scrapeJavaScript") === "on" });
  });
  revalidatePath(`/${locale}/orgs/${orgSlug}/projects/${projectSlug}/settings`);
  return state;
}

/** The project's own retention in days (the form's `retentionDays`; empty: the instance's), shorter than the instance's. */
export async function setRetentionAction(locale: string, orgSlug: string, projectSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    const raw = String(form.get("retentionDays") ?? "").trim();
    const retentionDays = raw === "" ? null : /^\d{1,5}$/.test(raw) ? Number(raw) : raw;
    await updateProject(core, orgSlug, projectSlug, { retentionDays }, { instanceRetentionDays: getServices().config.retentionDays });
  });
  revalidatePath(`/${locale}/orgs/${orgSlug}/projects/${projectSlug}/settings`);
  return state;
}

/** Who may download the project's attachments (issue 19): the form's `attachmentsRole`, checked by the core. */
export async function setAttachmentsRoleAction(locale: string, orgSlug: string, projectSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await updateProject(core, orgSlug, projectSlug, { attachmentsRole: String(form.get("attachmentsRole") ?? "") });
  });
  revalidatePath(`/${locale}/orgs/${orgSlug}/projects/${projectSlug}/settings`);
  return state;
}

export async function deleteProjectAction(locale: string, orgSlug: string, projectSlug: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => deleteProject(core, orgSlug, projectSlug));
  if (state.status === "ok") redirect(`/${locale}/orgs/${orgSlug}`);
  return state;
}
