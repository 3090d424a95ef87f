"use server";
// Cron monitors from the dashboard's forms: create, edit, mute and delete, through the same core functions as the
// API; a saved monitor's page is where the browser goes next.
import { redirect } from "next/navigation";
import { createMonitor, deleteMonitor, setMonitorMuted, updateMonitor } from "../../core/monitors";
import { formFields, formToMonitorInput } from "../monitor-form";
import { act } from "./act";
import { type ActionState, formObject } from "./result";

const monitorPath = (locale: string, org: string, slug: string) => `/${locale}/orgs/${org}/monitors/${slug}`;

export async function saveMonitorAction(locale: string, orgSlug: string, slug: string | null, _prev: ActionState, form: FormData): Promise<ActionState> {
  let saved: string | null = null;
  const state = await act(locale, async (core) => {
    const input = formToMonitorInput(formObject(form));
    saved = (slug === null ? await createMonitor(core, orgSlug, input) : await updateMonitor(core, orgSlug, slug, input)).slug;
  });
  if (state.status === "ok" && saved !== null) redirect(monitorPath(locale, orgSlug, saved));
  return { ...state, fields: formFields(state.fields) };
}

export async function muteMonitorAction(locale: string, orgSlug: string, slug: string, isMuted: boolean, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, async (core) => void (await setMonitorMuted(core, orgSlug, slug, isMuted)));
  if (state.status === "ok") redirect(monitorPath(locale, orgSlug, slug));
  return state;
}

export async function deleteMonitorAction(locale: string, orgSlug: string, slug: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => deleteMonitor(core, orgSlug, slug));
  if (state.status === "ok") redirect(`/${locale}/orgs/${orgSlug}/monitors`);
  return state;
}
