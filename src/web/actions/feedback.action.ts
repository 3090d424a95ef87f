"use server";
// The feedback inbox: mark a feedback resolved, spam or new again, and assign it to a member (or nobody).
import { revalidatePath } from "next/cache";
import { assignFeedback, setFeedbackStatus } from "../../core/feedback";
import type { FeedbackStatus } from "../../storage/feedback-ports";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

const revalidateInbox = (locale: string, org: string) => revalidatePath(`/${locale}/orgs/${org}/feedback`, "layout");

export async function setFeedbackStatusAction(
  locale: string,
  org: string,
  id: number,
  status: FeedbackStatus,
  _prev: ActionState,
  _form: FormData,
): Promise<ActionState> {
  const state = await act(locale, async (core) => {
    await setFeedbackStatus(core, org, id, { status });
  });
  revalidateInbox(locale, org);
  return state;
}

export async function assignFeedbackAction(locale: string, org: string, id: number, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await assignFeedback(core, org, id, formObject(form).assignee ?? "");
  });
  revalidateInbox(locale, org);
  return state;
}
