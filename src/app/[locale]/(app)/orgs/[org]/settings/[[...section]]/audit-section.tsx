// The organization's audit trail (issue 20): owners and admins (org:audit) see who changed what, when and from where.
import { getTranslations } from "next-intl/server";
import { allowed, type OrgAccess } from "@/core/access";
import { listAuditLog } from "@/core/audit";
import type { CoreContext } from "@/core/context";
import { AuditLog } from "@/web/components/audit/audit-log";

export async function AuditSection({
  core,
  access,
  locale,
  query,
}: {
  core: CoreContext;
  access: OrgAccess;
  locale: string;
  query: { event?: string; actor?: string; cursor?: string };
}) {
  const t = await getTranslations("audit");
  if (!allowed(access, "org:audit")) return <p className="muted">{t("notAllowed")}</p>;
  const page = await listAuditLog(core, access.org.slug, query);
  return (
    <>
      <p className="muted">{t("hint")}</p>
      <AuditLog locale={locale} page={page} path={`/orgs/${access.org.slug}/settings/audit`} filters={{ event: query.event, actor: query.actor }} />
    </>
  );
}
