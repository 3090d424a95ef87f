// Every page of an organization: a member without two-factor in an organization that requires it sees only the
// enrolment page. Each page still checks access itself through the core (which refuses them too); this sends them
// to the enrolment page first, whichever page they opened (web/load.ts does the same for the pages' own reads).
import type { ReactNode } from "react";
import { getOrgAccess } from "@/core/access";
import { loadOrNotFound } from "@/web/load";
import { renderStore } from "@/web/render-store";
import { getCurrentUser } from "@/web/session";

export const dynamic = "force-dynamic";

export default async function OrganizationLayout({ children, params }: { children: ReactNode; params: { locale: string; org: string } }) {
  // Nobody signed in: the page itself sends them to the sign-in page, coming back to where they were.
  const user = await getCurrentUser();
  if (user) await loadOrNotFound(() => getOrgAccess({ store: renderStore(), actor: { user } }, params.org));
  return <>{children}</>;
}
