"use server";
// The account page's sessions (issue 20): signing out one of the person's other sessions, or all of them. The core
// acts on the signed-in person's own sessions only; the revoked sessions' open live streams end at once.
import { redirect } from "next/navigation";
import { revokeOtherSessions, revokeSession } from "../../core/sessions";
import { endStreamsOfSessions } from "../live-streams";
import { requireSessionCore } from "../session";
import { validationTranslator } from "./act";
import { type ActionState, runAction, isForm, NOT_A_FORM } from "./result";
import { knownLocale } from "./locale";

/** Signs out the session whose id the form's `sessionId` holds (one of the person's own, not the one in use). */
export async function revokeSessionAction(locale: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isForm(form)) return NOT_A_FORM;
  const lang = knownLocale(locale);
  const { core, sessionId } = await requireSessionCore(lang);
  const state = await runAction(
    async () => {
      const revoked = await revokeSession(core, sessionId, { sessionId: form.get("sessionId") ?? undefined });
      endStreamsOfSessions(core.actor.user.id, revoked);
    },
    await validationTranslator(lang),
  );
  // The revoked row (and its form) is gone from the list: the page says what happened.
  if (state.status === "ok") redirect(`/${lang}/account/sessions?done=revoked`);
  return state;
}

/** Signs out every session of the person but the one in use. */
export async function revokeOtherSessionsAction(locale: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const lang = knownLocale(locale);
  const { core, sessionId } = await requireSessionCore(lang);
  let count = 0;
  const state = await runAction(
    async () => {
      const revoked = await revokeOtherSessions(core, sessionId);
      endStreamsOfSessions(core.actor.user.id, revoked);
      count = revoked.length;
    },
    await validationTranslator(lang),
  );
  if (state.status === "ok") redirect(`/${lang}/account/sessions?done=others&count=${count}`);
  return state;
}
