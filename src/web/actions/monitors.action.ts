"use server";
// Cron monitors from the dashboard's forms: create, edit, mute and delete, through the same core functions as the
// API. A new monitor's page (or an edited one's under a new slug) is where the browser goes next; an edit or a mute
// that stays on the page renders it again (a redirect to the same page would leave the form without its state).
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { createMonitor, deleteMonitor, setMonitorMuted, updateMonitor } from "../../core/monitors";
import { formFields, formToMonitorInput } from "../monitor-form";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

const monitorPath = (locale: string, org: string, slug: string) => `/${locale}/orgs/${org}/monitors/${slug}`;

export async function saveMonitorAction(locale: string, orgSlug: string, slug: string | null, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  let saved: string | null = null;
  const state = await act(locale, async (core) => {
    const input = formToMonitorInput(formObject(form));
    saved = (slug === null ? await createMonitor(core, orgSlug, input) : await updateMonitor(core, orgSlug, slug, input)).slug;
  });
  if (state.status === "ok" && saved !== null) {
    if (saved !== slug) redirect(monitorPath(locale, orgSlug, saved));
    revalidatePath(monitorPath(locale, orgSlug, saved));
  }
  return { ...state, fields: formFields(state.fields) };
}

export async function muteMonitorAction(
  locale: string,
  orgSlug: string,
  slug: string,
  isMuted: boolean,
  _prev: ActionState,
  _form: FormData,
): Promise<ActionState> {
  const state = await act(locale, async (core) => void (await setMonitorMuted(core, orgSlug, slug, isMuted)));
  if (state.status === "ok") revalidatePath(monitorPath(locale, orgSlug, slug));
  return state;
}

export async function deleteMonitorAction(locale: string, orgSlug: string, slug: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => deleteMonitor(core, orgSlug, slug));
  if (state.status === "ok") redirect(`/${locale}/orgs/${orgSlug}/monitors`);
  return state;
}
