// Organization settings: general (optional catch-all default), members, teams, auth tokens.
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

export const dynamic = "force-dynamic";

const SECTIONS = ["general", "members", "teams", "tokens"] as const;
type Section = (typeof SECTIONS)[number];

export default async function OrganizationSettingsPage({ params }: { params: { locale: string; org: string; section?: string[] } }) {
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
    </>
  );
}
