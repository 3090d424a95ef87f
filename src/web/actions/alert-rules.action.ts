"use server";
// Issue alert rules from the project's Alerts settings (plain forms): save, delete, send a test notification; and the
// organization's "Let members create alerts".
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { createAlertRule, deleteAlertRule, sendTestNotification, setAlertsMemberWrite, updateAlertRule } from "../../core/alert-rules";
import { linkBase } from "../../core/links";
import { formToRule } from "../alert-rule-form";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

const alertsPath = (locale: string, org: string, project: string) => `/${locale}/orgs/${org}/projects/${project}/alerts`;

export async function saveAlertRuleAction(
  locale: string,
  orgSlug: string,
  projectSlug: string,
  ruleId: number | null,
  _prev: ActionState,
  form: FormData,
): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  let id = ruleId;
  const state = await act(locale, async (core) => {
    const body = formToRule(formObject(form));
    id = ruleId === null ? (await createAlertRule(core, orgSlug, projectSlug, body)).id : (await updateAlertRule(core, orgSlug, projectSlug, ruleId, body)).id;
  });
  revalidatePath(alertsPath(locale, orgSlug, projectSlug), "layout");
  if (state.status === "ok" && ruleId === null) redirect(`${alertsPath(locale, orgSlug, projectSlug)}/${id}`);
  // The core names the rule's nodes (actions.0.url…), not the form's fields: the form shows what is wrong in its message.
  if (state.status === "error" && state.fields) return { ...state, message: [state.message, ...Object.values(state.fields).flat()].filter(Boolean).join(" ") };
  return state;
}

export async function deleteAlertRuleAction(
  locale: string,
  orgSlug: string,
  projectSlug: string,
  ruleId: number,
  _prev: ActionState,
  _form: FormData,
): Promise<ActionState> {
  const state = await act(locale, (core) => deleteAlertRule(core, orgSlug, projectSlug, ruleId));
  if (state.status === "ok") redirect(alertsPath(locale, orgSlug, projectSlug));
  return state;
}

export async function testAlertRuleAction(
  locale: string,
  orgSlug: string,
  projectSlug: string,
  ruleId: number,
  _prev: ActionState,
  _form: FormData,
): Promise<ActionState> {
  const state = await act(locale, async (core) => {
    await sendTestNotification(core, orgSlug, projectSlug, ruleId, linkBase());
  });
  revalidatePath(`${alertsPath(locale, orgSlug, projectSlug)}/${ruleId}`);
  return state;
}

export async function setAlertsMemberWriteAction(locale: string, orgSlug: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await setAlertsMemberWrite(core, orgSlug, { alertsMemberWrite: form.get("alertsMemberWrite") === "on" });
  });
  revalidatePath(`/${locale}/orgs/${orgSlug}/settings`);
  return state;
}
