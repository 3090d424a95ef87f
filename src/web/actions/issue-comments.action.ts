"use server";
// Comments on the issue page: add, edit one's own, delete (one's own, or anyone's as an admin or owner).
import { revalidatePath } from "next/cache";
import { addComment, deleteComment, updateComment } from "../../core/issue-comments";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

const revalidateIssue = (locale: string, org: string, issueId: string) => revalidatePath(`/${locale}/orgs/${org}/issues/${issueId}`, "layout");

export async function addCommentAction(locale: string, org: string, issueId: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await addComment(core, issueId, { text: formObject(form).text ?? "" });
  });
  revalidateIssue(locale, org, issueId);
  return state;
}

export async function editCommentAction(
  locale: string,
  org: string,
  issueId: string,
  commentId: number,
  _prev: ActionState,
  form: FormData,
): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await updateComment(core, issueId, commentId, { text: formObject(form).text ?? "" });
  });
  revalidateIssue(locale, org, issueId);
  return state;
}

export async function deleteCommentAction(
  locale: string,
  org: string,
  issueId: string,
  commentId: number,
  _prev: ActionState,
  _form: FormData,
): Promise<ActionState> {
  const state = await act(locale, (core) => deleteComment(core, issueId, commentId));
  revalidateIssue(locale, org, issueId);
  return state;
}
