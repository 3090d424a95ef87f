// Diagnostics for the install's superusers: whether writes fail for want of disk space (storage-section.tsx), the
// records the digest set aside (dead-letters-section.tsx), and pages that fail on purpose, to check what people see
// when a page fails inside the dashboard (its error boundary) and when an error escapes every boundary (the
// framework's fallback; those pages live in the (bare) route group, outside the dashboard's boundary). Others get the
// 404 page.
import { randomUUID } from "node:crypto";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { requireCore } from "@/web/session";
import { DeadLettersSection } from "./dead-letters-section";
import { StorageSection } from "./storage-section";

export const dynamic = "force-dynamic";

export default async function DiagnosticsPage({ params: { locale } }: { params: { locale: string } }) {
  const core = await requireCore(locale, `/${locale}/diagnostics`);
  if (!core.actor.user.isSuperuser) notFound();
  const t = await getTranslations("diagnostics");
  return (
    <>
      <h1>{t("title")}</h1>
      <StorageSection locale={locale} />
      <DeadLettersSection core={core} locale={locale} />
      <h2>{t("failingPages")}</h2>
      <p>{t("intro")}</p>
      <ul>
        <li>
          <a href={`/${locale}/diagnostics/route-error`}>{t("routeError")}</a>
        </li>
        <li>
          <a href={`/${locale}/diagnostics/route-error?once=${randomUUID()}`}>{t("routeErrorOnce")}</a>
        </li>
        <li>
          <a href={`/${locale}/diagnostics/server-error`}>{t("serverError")}</a>
        </li>
        <li>
          <a href={`/${locale}/diagnostics/client-error`}>{t("clientError")}</a>
        </li>
      </ul>
    </>
  );
}
