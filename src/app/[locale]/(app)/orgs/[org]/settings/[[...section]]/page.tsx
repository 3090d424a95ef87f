// Organization settings: general (optional catch-all default), members, teams, auth tokens, personal data, data scrubbing, audit log.
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { getOrganization } from "@/core/organizations";
import { OrgNav } from "@/web/components/org-nav";
import { loadOrNotFound } from "@/web/load";
import { requireCore } from "@/web/session";
import { GeneralSection } from "./general-section";
import { MembersSection } from "./members-section";
import { TeamsSection } from "./teams-section";
import { TokensSection } from "./tokens-section";
import { PrivacySection } from "./privacy-section";
import { AuditSection } from "./audit-section";
import { scrubbingOptionsOf } from "@/core/data-scrubbing";
import { can } from "@/core/permissions";
import { ScrubbingSettings } from "@/web/components/scrubbing-settings";

export const dynamic = "force-dynamic";

const SECTIONS = ["general", "members", "teams", "tokens", "privacy", "scrubbing", "audit"] as const;
type Section = (typeof SECTIONS)[number];

const one = (v: string | string[] | undefined): string | undefined => (typeof v === "string" ? v : undefined);

export default async function OrganizationSettingsPage({
  params,
  searchParams,
}: {
  params: { locale: string; org: string; section?: string[] };
  searchParams: Record<string, string | string[] | undefined>;
}) {
  const [first = "general", ...extra] = params.section ?? [];
  if (extra.length > 0 || !(SECTIONS as readonly string[]).includes(first)) notFound();
  const section = first as Section;
  const core = await requireCore(params.locale, `/${params.locale}/orgs/${params.org}/settings`);
  const access = await loadOrNotFound(() => getOrganization(core, params.org));
  const t = await getTranslations("orgSettings");
  return (
    <>
      <OrgNav org={access.org} current={section} />
      <h1>{t(`${section}.title`)}</h1>
      {section === "general" ? <GeneralSection core={core} access={access} locale={params.locale} /> : null}
      {section === "members" ? <MembersSection core={core} access={access} locale={params.locale} /> : null}
      {section === "teams" ? <TeamsSection core={core} access={access} locale={params.locale} /> : null}
      {section === "tokens" ? <TokensSection core={core} access={access} locale={params.locale} /> : null}
      {section === "privacy" ? (
        <PrivacySection
          core={core}
          access={access}
          locale={params.locale}
          search={{ field: one(searchParams.field), value: one(searchParams.value), confirm: one(searchParams.confirm) }}
        />
      ) : null}
      {section === "audit" ? (
        <AuditSection
          core={core}
          access={access}
          locale={params.locale}
          query={{ event: one(searchParams.event), actor: one(searchParams.actor), cursor: one(searchParams.cursor) }}
        />
      ) : null}
      {section === "scrubbing" ? (
        <ScrubbingSettings
          locale={params.locale}
          target={{ org: access.org.slug }}
          options={await scrubbingOptionsOf(core, { organizationId: access.org.id })}
          editable={can(access.role, "org:update")}
        />
      ) : null}
    </>
  );
}
