// Throws inside the dashboard: its error boundary (src/app/[locale]/(app)/error.tsx) shows a message, the digest
// and a retry, inside the normal page shell. With `?once=<token>` it fails only the first time it is asked for that
// token and then shows the page, like a passing failure: the boundary's "Try again" must recover from it.
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { requireUser } from "@/web/session";

export const dynamic = "force-dynamic";

/** A token of a page that fails once: a UUID or anything as plain and short. */
const ONCE_TOKEN = /^[A-Za-z0-9-]{1,64}$/;
/** tokens; the failures remembered in this process (oldest forgotten first): superusers' clicks, not a store. */
const ONCE_REMEMBERED = 256;
const failedOnce = new Set<string>();

/** True the first time `token` is asked about (the page then fails), false after. */
function firstTime(token: string): boolean {
  if (failedOnce.has(token)) return false;
  failedOnce.add(token);
  if (failedOnce.size > ONCE_REMEMBERED) failedOnce.delete(failedOnce.values().next().value as string);
  return true;
}

export default async function RouteErrorDiagnostic({
  params: { locale },
  searchParams,
}: {
  params: { locale: string };
  searchParams: { once?: string | string[] };
}) {
  const user = await requireUser(locale, `/${locale}/diagnostics/route-error`);
  if (!user.isSuperuser) notFound();
  const once = typeof searchParams.once === "string" && ONCE_TOKEN.test(searchParams.once) ? searchParams.once : null;
  if (once === null || firstTime(once)) throw new Error("Faultline diagnostics: deliberate error inside the dashboard");
  const t = await getTranslations("diagnostics");
  return (
    <>
      <h1>{t("recoveredTitle")}</h1>
      <p>{t("recovered")}</p>
    </>
  );
}
