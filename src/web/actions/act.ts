import "server-only";
import { getTranslations } from "next-intl/server";
import type { CoreContext } from "../../core/context";
import { requireCore } from "../session";
import { type ActionState, runAction, type Translate } from "./result";

/** The validation catalogue of a locale: the core's English messages are its keys. */
export async function validationTranslator(locale: string): Promise<Translate> {
  const t = await getTranslations({ locale, namespace: "validation" });
  return (message) => (t.has(message) ? t(message) : message);
}

/** Authenticates (redirecting to sign-in when needed), then runs the body with core errors mapped to form state. */
export async function act(locale: string, body: (core: CoreContext) => Promise<ActionState | void>): Promise<ActionState> {
  const core = await requireCore(locale);
  return runAction(() => body(core), await validationTranslator(locale));
}
