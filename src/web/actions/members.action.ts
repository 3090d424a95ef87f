"use server";
import { revalidatePath } from "next/cache";
import { removeMember, updateMemberRole } from "../../core/members";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

const membersPath = (locale: string, org: string) => `/${locale}/orgs/${org}/settings/members`;

export async function updateMemberRoleAction(locale: string, orgSlug: string, memberId: number, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await updateMemberRole(core, orgSlug, memberId, formObject(form));
  });
  revalidatePath(membersPath(locale, orgSlug));
  return state;
}

export async function removeMemberAction(locale: string, orgSlug: string, memberId: number, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => removeMember(core, orgSlug, memberId));
  revalidatePath(membersPath(locale, orgSlug));
  return state;
}
