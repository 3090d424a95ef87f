"use server";
import { revalidatePath } from "next/cache";
import { createKey, deleteKey, updateKey } from "../../core/keys";
import { act } from "./act";
import { type ActionState, formObject, isForm, NOT_A_FORM } from "./result";

const keysPath = (locale: string, org: string, project: string) => `/${locale}/orgs/${org}/projects/${project}/settings/keys`;

export async function createKeyAction(locale: string, org: string, project: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await createKey(core, org, project, formObject(form));
  });
  revalidatePath(keysPath(locale, org, project));
  return state;
}

export async function renameKeyAction(
  locale: string,
  org: string,
  project: string,
  publicKey: string,
  _prev: ActionState,
  form: FormData,
): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, async (core) => {
    await updateKey(core, org, project, publicKey, { label: formObject(form).label ?? "" });
  });
  revalidatePath(keysPath(locale, org, project));
  return state;
}

export async function setKeyActiveAction(
  locale: string,
  org: string,
  project: string,
  publicKey: string,
  isActive: boolean,
  _prev: ActionState,
  _form: FormData,
): Promise<ActionState> {
  const state = await act(locale, async (core) => {
    await updateKey(core, org, project, publicKey, { isActive });
  });
  revalidatePath(keysPath(locale, org, project));
  return state;
}

export async function deleteKeyAction(
  locale: string,
  org: string,
  project: string,
  publicKey: string,
  _prev: ActionState,
  _form: FormData,
): Promise<ActionState> {
  const state = await act(locale, (core) => deleteKey(core, org, project, publicKey));
  revalidatePath(keysPath(locale, org, project));
  return state;
}

/**
 * A key's quota of one category from the form: a count per window (seconds); an empty count removes it. Errors are
 * Sentry's `rateLimit`, the other categories `quotas` (core/schemas.ts checks the category).
 */
export async function setKeyRateLimitAction(
  locale: string,
  org: string,
  project: string,
  publicKey: string,
  _prev: ActionState,
  form: FormData,
): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const { count, window, category = "error" } = formObject(form);
  const limit = count === undefined ? null : { count: Number(count), window: Number(window) };
  const state = await act(locale, async (core) => {
    await updateKey(core, org, project, publicKey, category === "error" ? { rateLimit: limit } : { quotas: { [category]: limit } });
  });
  revalidatePath(keysPath(locale, org, project));
  return state;
}
