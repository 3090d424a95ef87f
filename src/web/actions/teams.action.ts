"use server";
import { revalidatePath } from "next/cache";
import { createTeam, deleteTeam, setTeamMembership } from "../../core/teams";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

const teamsPath = (locale: string, org: string) => `/${locale}/orgs/${org}/settings/teams`;

export async function createTeamAction(locale: string, orgSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await createTeam(core, orgSlug, formObject(form));
  });
  revalidatePath(teamsPath(locale, orgSlug));
  return state;
}

export async function deleteTeamAction(locale: string, orgSlug: string, teamSlug: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => deleteTeam(core, orgSlug, teamSlug));
  revalidatePath(teamsPath(locale, orgSlug));
  return state;
}

export async function setTeamMembershipAction(
  locale: string,
  orgSlug: string,
  teamSlug: string,
  join: boolean,
  _prev: ActionState,
  _form: FormData,
): Promise<ActionState> {
  const state = await act(locale, (core) => setTeamMembership(core, orgSlug, teamSlug, join));
  revalidatePath(teamsPath(locale, orgSlug));
  return state;
}
