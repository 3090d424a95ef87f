import "server-only";
import { getTranslations } from "next-intl/server";
import type { CoreContext } from "../../core/context";
import { DEFAULT_LOCALE, isLocale } from "../../i18n/routing";
import { requireCore } from "../session";
import { knownLocale } from "./locale";
import { type ActionState, runAction, type Translate } from "./result";

/** The validation catalogue of a locale: the core's English messages are its keys. */
export async function validationTranslator(locale: string): Promise<Translate> {
  const t = await getTranslations({ locale: knownLocale(locale), namespace: "validation" });
  return (message) => (t.has(message) ? t(message) : message);
}

/**
 * Authenticates (redirecting to sign-in when needed), then runs the body with core errors mapped to form state. An
 * action's locale is an argument the request carries: one that is not Faultline's runs nothing. The actions build
 * their redirects from it, and a locale no header can carry (a control character, a lone surrogate) answered 500 after
 * the body had run and committed.
 */
export async function act(locale: string, body: (core: CoreContext) => Promise<ActionState | void>): Promise<ActionState> {
  if (!isLocale(locale)) return { status: "error", message: (await validationTranslator(DEFAULT_LOCALE))("unknownLocale") };
  const lang = locale;
  const core = await requireCore(lang);
  return runAction(() => body(core), await validationTranslator(lang));
}
