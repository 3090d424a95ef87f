"use server";
// The issue stream's mutations: bulk resolve, unresolve, ignore (with its condition) and assign across the
// organization's projects, and "send a test event" from the empty state.
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { getTranslations } from "next-intl/server";
import { updateOrgIssues } from "../../core/issues";
import { sendTestEvent } from "../../core/test-event";
import { CLIENT_IP_HEADER } from "../../auth/create-auth";
import { inProcessIntake } from "../../ingest/in-process";
import { act } from "./act";
import { type ActionState, isForm, NOT_A_FORM } from "./result";

const streamPath = (locale: string, org: string) => `/${locale}/orgs/${org}/issues`;

/** A whole number from a form field; NaN for anything else, which the core's schema refuses. */
const whole = (v: FormDataEntryValue | null): number | undefined =>
  typeof v !== "string" || v === "" ? undefined : /^\d{1,10}$/.test(v) ? Number(v) : Number.NaN;

/** The ignore form's condition as Sentry's statusDetails: forever, for a duration, until N events or N users. */
function ignoreDetails(form: FormData): Record<string, number | undefined> {
  switch (form.get("ignoreMode")) {
    case "duration":
      return { ignoreDuration: whole(form.get("ignoreDuration")) };
    case "count":
      return { ignoreCount: whole(form.get("ignoreCount")), ignoreWindow: whole(form.get("ignoreWindow")) };
    case "users":
      return { ignoreUserCount: whole(form.get("ignoreUserCount")), ignoreUserWindow: whole(form.get("ignoreWindow")) };
    default:
      return {};
  }
}

/** The PUT body a bulk form asks for, by the button pressed (`op`). */
function bulkBody(form: FormData): Record<string, unknown> {
  switch (form.get("op")) {
    case "resolve":
      return { status: "resolved" };
    case "unresolve":
      return { status: "unresolved" };
    case "ignore":
      return { status: "ignored", statusDetails: ignoreDetails(form) };
    case "assign":
      return { assignedTo: String(form.get("assignee") ?? "") };
    default:
      return {};
  }
}

export async function bulkIssuesAction(locale: string, org: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const ids = form.getAll("issue").filter((v): v is string => typeof v === "string");
  const state = await act(locale, async (core) => {
    const changed = await updateOrgIssues(core, org, ids, bulkBody(form));
    const t = await getTranslations({ locale, namespace: "issueStream.bulk" });
    return { status: "ok", message: t("done", { count: changed.length }) };
  });
  revalidatePath(streamPath(locale, org));
  return state;
}

export async function sendTestEventAction(locale: string, org: string, project: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const clientIp = headers().get(CLIENT_IP_HEADER) ?? "127.0.0.1";
  return act(locale, async (core) => {
    await sendTestEvent(core, org, project, inProcessIntake(), clientIp);
    const t = await getTranslations({ locale, namespace: "issueStream.empty" });
    return { status: "ok", message: t("testEventSent") };
  });
}
