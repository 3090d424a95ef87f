// Instance settings, security (superusers): the instance's audit trail: failed sign-ins and lock-outs, personal
// tokens, password changes, deleted organizations (core/audit.ts). Others get the 404 page; the core checks again.
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { listInstanceAuditLog } from "@/core/audit";
import { AuditLog } from "@/web/components/audit/audit-log";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";
import { InstanceTabs } from "../instance-tabs";

export const dynamic = "force-dynamic";

const one = (v: string | string[] | undefined): string | undefined => (typeof v === "string" ? v : undefined);

export default async function InstanceSecurityPage({
  params: { locale },
  searchParams,
}: {
  params: { locale: string };
  searchParams: Record<string, string | string[] | undefined>;
}) {
  const core = await requireCore(locale, `/${locale}/instance/security`);
  if (!core.actor.user.isSuperuser) notFound();
  const t = await getTranslations("audit");
  const query = { event: one(searchParams.event), actor: one(searchParams.actor), cursor: one(searchParams.cursor) };
  const page = await loadOrNotFound(() => listInstanceAuditLog(core, query));
  return (
    <>
      <h1>{t("securityTitle")}</h1>
      <InstanceTabs locale={locale} current="security" />
      <p className="muted">{t("securityHint")}</p>
      <AuditLog locale={locale} page={page} path="/instance/security" filters={{ event: query.event, actor: query.actor }} />
    </>
  );
}
