import "server-only";
import { notFound, redirect } from "next/navigation";
import { getLocale } from "next-intl/server";
import { isAppError, isTwoFactorRequired } from "../core/errors";

/** Where a person without two-factor is sent by an organization that requires it: the enrolment page, naming it. */
export const twoFactorEnrolmentPath = (locale: string, orgSlug: string) => `/${locale}/account/two-factor?required=${encodeURIComponent(orgSlug)}`;

/**
 * Runs a core read for a page; not_found (including another organization's objects) renders the 404 page, and an
 * organization requiring two-factor of a person without it sends them to the enrolment page.
 */
export async function loadOrNotFound<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (isTwoFactorRequired(err)) redirect(twoFactorEnrolmentPath(await getLocale(), err.orgSlug));
    if (isAppError(err) && (err.code === "not_found" || err.code === "forbidden")) notFound();
    throw err;
  }
}
