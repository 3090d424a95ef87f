"use server";
// The issue page's triage: status changes (resolve, resolve in the next release, ignore with its conditions,
// unresolve), assignment and deletion, through the same core service as Sentry's PUT and DELETE /issues/{id}/.
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { deleteIssue, updateIssue } from "../../core/issues";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

export type IssueStatusAction = "resolved" | "resolvedInNextRelease" | "unresolved" | "ignored";

/** The issue's pages (latest event and every event under it). */
const revalidateIssue = (locale: string, org: string, issueId: string) => revalidatePath(`/${locale}/orgs/${org}/issues/${issueId}`, "layout");

const IGNORE_FIELDS = ["ignoreDuration", "ignoreCount", "ignoreWindow", "ignoreUserCount", "ignoreUserWindow"] as const;

/** The ignore conditions a form filled in, as Sentry's statusDetails numbers (the core validates them). */
function ignoreDetails(form: FormData): Record<string, number> {
  const fields = formObject(form);
  const out: Record<string, number> = {};
  for (const key of IGNORE_FIELDS) if (fields[key] !== undefined) out[key] = Number(fields[key]);
  return out;
}

export async function setIssueStatusAction(
  locale: string,
  org: string,
  issueId: string,
  status: IssueStatusAction,
  _prev: ActionState,
  form: FormData,
): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await updateIssue(core, issueId, { status, statusDetails: status === "ignored" ? ignoreDetails(form) : {} });
  });
  revalidateIssue(locale, org, issueId);
  return state;
}

export async function assignIssueAction(locale: string, org: string, issueId: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await updateIssue(core, issueId, { assignedTo: formObject(form).assignedTo ?? null });
  });
  revalidateIssue(locale, org, issueId);
  return state;
}

export async function deleteIssueAction(
  locale: string,
  org: string,
  projectSlug: string,
  issueId: string,
  _prev: ActionState,
  _form: FormData,
): Promise<ActionState> {
  const state = await act(locale, (core) => deleteIssue(core, issueId));
  if (state.status === "ok") redirect(`/${locale}/orgs/${org}/issues?project=${encodeURIComponent(projectSlug)}`);
  return state;
}
