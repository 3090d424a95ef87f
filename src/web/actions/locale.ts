// The locale and the post-sign-in destination of an action, as its redirect may use them. Both are arguments the
// request carries, and a redirect goes out in a header (x-action-redirect), which cannot carry a control character or
// a lone surrogate: Node refused the header and the action answered 500, after its work was done.
import { DEFAULT_LOCALE, isLocale } from "../../i18n/routing";

/** The action's locale if it is one of Faultline's, else the default. */
export const knownLocale = (locale: string): string => (isLocale(locale) ? locale : DEFAULT_LOCALE);

/**
 * A same-site path under the locale to go to next (no open redirect: not `//host`, not `/\host`), in the printable
 * ASCII a browser sends a path in; otherwise `fallback`.
 */
export function safeNext(locale: string, next: string | undefined, fallback = `/${locale}`): string {
  return next && next.startsWith(`/${locale}/`) && !next.startsWith("//") && !next.includes("\\") && /^[\x21-\x7e]*$/.test(next) ? next : fallback;
}
