"use server";
// Metric alerts from the dashboard's plain forms: create, change and delete, through the same core functions as the
// API; errors come back next to the form's fields. A saved rule's page is where the browser goes next.
import { redirect } from "next/navigation";
import { createMetricAlert, deleteMetricAlert, getMetricAlert, updateMetricAlert } from "../../core/metric-alerts";
import { formField, formToInput } from "../metric-alert-form";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

const rulePath = (locale: string, org: string, id: number) => `/${locale}/orgs/${org}/alerts/metric/${id}`;

function withFormFields(state: ActionState, hasWarning: boolean): ActionState {
  if (!state.fields) return state;
  const fields: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(state.fields)) (fields[formField(k, hasWarning)] ??= []).push(...v);
  return { ...state, fields };
}

export async function saveMetricAlertAction(locale: string, orgSlug: string, ruleId: number | null, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const values = formObject(form);
  let savedId: number | null = null;
  const state = await act(locale, async (core) => {
    const current = ruleId === null ? null : await getMetricAlert(core, orgSlug, ruleId);
    const input = formToInput(values, current);
    savedId = (ruleId === null ? await createMetricAlert(core, orgSlug, input) : await updateMetricAlert(core, orgSlug, ruleId, input)).id;
  });
  if (state.status === "ok" && savedId !== null) redirect(rulePath(locale, orgSlug, savedId));
  return withFormFields(state, (values.warning ?? "") !== "");
}

export async function deleteMetricAlertAction(locale: string, orgSlug: string, ruleId: number, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => deleteMetricAlert(core, orgSlug, ruleId));
  if (state.status === "ok") redirect(`/${locale}/orgs/${orgSlug}/alerts`);
  return state;
}
