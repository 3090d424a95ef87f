// The shape every server action returns to its form, and the one place core errors become form errors.
import { isAppError } from "../../core/errors";
import { isStorageFull, reportStorageFull, STORAGE_FULL_MESSAGE } from "../../storage/storage-full";

export type ActionState = {
  status: "idle" | "ok" | "error";
  message?: string;
  fields?: Record<string, string[]>;
  /** A second line of news beside the message (e.g. whether an invitation went out by mail). */
  notice?: string;
  /** Values to show once, such as a new API token. */
  data?: Record<string, string>;
};

/** Translates the core's English messages; returns the input when no translation exists. */
export type Translate = (message: string) => string;

/**
 * Runs the action body; expected failures (validation, permission, conflict, not found) become an error state
 * shown inline, in the user's language, and so does a write the disk had no room for (storageFullState). Anything
 * else is a bug and propagates to the route's error boundary.
 */
export async function runAction(body: () => Promise<ActionState | void>, translate: Translate = (m) => m): Promise<ActionState> {
  try {
    return (await body()) ?? { status: "ok" };
  } catch (err) {
    if (isStorageFull(err)) return storageFullState(translate);
    if (!isAppError(err)) throw err;
    const fields = err.fields ? Object.fromEntries(Object.entries(err.fields).map(([k, msgs]) => [k, msgs.map(translate)])) : undefined;
    return { status: "error", message: err.isValidation ? translate("invalid") : translate(err.message), fields };
  }
}

/** A form's answer when the disk had no room for what it changes: nothing was saved, and it can be sent again. */
export function storageFullState(translate: Translate): ActionState {
  reportStorageFull("serverAction");
  const message = translate("storageFull");
  return { status: "error", message: message === "storageFull" ? STORAGE_FULL_MESSAGE : message };
}

/**
 * Whether a form action's form is one. Next.js decodes an action's arguments from the request, and one crafted by hand
 * can put an object or a string where the form goes: form.get() then threw, a 500 to anyone, signed in or not.
 */
export const isForm = (form: unknown): form is FormData => form instanceof FormData;

/** What a form action answers when its form is not one (isForm). */
export const NOT_A_FORM: ActionState = { status: "error", message: "The form could not be read" };

/** FormData to a plain object; empty strings become undefined so optional fields stay optional. */
export function formObject(form: FormData): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of form.entries()) {
    if (k.startsWith("$ACTION")) continue;
    if (typeof v === "string") out[k] = v === "" ? undefined : v;
  }
  return out;
}
