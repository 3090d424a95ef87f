"use server";
// Personal notification settings (account page) and issue subscriptions (issue page), through the core services
// that check who may change what.
import { revalidatePath } from "next/cache";
import { setIssueSubscription } from "../../core/issue-subscriptions";
import { setProjectEmailAlerts, setWeeklySummary, updatePersonalNotifications } from "../../core/notification-settings";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

const revalidateAccount = (locale: string) => revalidatePath(`/${locale}/account/notifications`);

export async function updatePersonalNotificationsAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const f = formObject(form);
  const state = await act(locale, async (core) => {
    await updatePersonalNotifications(core, { locale: f.locale ?? "", timeZone: f.timeZone ?? "", workflow: f.workflow });
  });
  revalidateAccount(locale);
  return state;
}

export async function setProjectEmailAction(locale: string, projectId: number, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, (core) => setProjectEmailAlerts(core, projectId, { email: formObject(form).email }));
  revalidateAccount(locale);
  return state;
}

export async function setWeeklySummaryAction(locale: string, org: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, (core) => setWeeklySummary(core, org, { weeklySummary: formObject(form).weeklySummary }));
  revalidateAccount(locale);
  return state;
}

export async function setIssueSubscriptionAction(locale: string, org: string, issueId: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await setIssueSubscription(core, issueId, { subscribed: formObject(form).subscribed });
  });
  revalidatePath(`/${locale}/orgs/${org}/issues/${issueId}`, "layout");
  return state;
}
