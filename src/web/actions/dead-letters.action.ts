"use server";
// The diagnostics page's records set aside by the digest: send one through the digest again, or discard it. The
// core checks that the user is a superuser (core/dead-letters.ts); act() that someone is signed in.
import { revalidatePath } from "next/cache";
import { discardDeadLetter, retryDeadLetter } from "../../core/dead-letters";
import { inProcessIntake } from "../../ingest/in-process";
import { act } from "./act";
import type { ActionState } from "./result";

const diagnosticsPath = (locale: string) => `/${locale}/diagnostics`;

export async function retryDeadLetterAction(locale: string, id: number, _prev: ActionState, _form: FormData): Promise<ActionState> {
  // Once sent, the row says so ("sent again" and when) in place of its Retry button.
  const state = await act(locale, async (core) => {
    await retryDeadLetter(core, id, inProcessIntake());
  });
  if (state.status === "ok") revalidatePath(diagnosticsPath(locale));
  return state;
}

export async function discardDeadLetterAction(locale: string, id: number, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const state = await act(locale, (core) => discardDeadLetter(core, id));
  if (state.status === "ok") revalidatePath(diagnosticsPath(locale));
  return state;
}
