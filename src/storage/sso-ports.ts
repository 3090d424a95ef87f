// Single sign-on (issue 20, migration 0035): an organization's "require SSO" and auto-join domains, and the provider
// configured in the instance settings. Who is linked to the provider is better-auth's accounts table.
import type { Role } from "../core/roles";

export type OrgSso = { requireSso: boolean; autoJoinDomains: string[]; autoJoinRole: Role };

/** The provider stored in the instance settings; clientSecret is the encrypted form, decrypted only by auth/. */
export type StoredSsoSettings = { issuer: string; clientId: string; clientSecret: string; name: string; updatedAt: string };

export interface SsoStore {
  /** An organization's SSO settings (null for an organization that does not exist); domains sorted. */
  getOrgSso(organizationId: number): Promise<OrgSso | null>;
  /** Replaces the settings in one transaction; domains are lower case and unique. */
  setOrgSso(organizationId: number, settings: OrgSso): Promise<void>;
  /** Organizations auto-joining `domain` (lower case) and the role each gives, ordered by organization id. */
  listAutoJoinOrganizations(domain: string): Promise<{ organizationId: number; role: Role }[]>;
  /**
   * Adds the person to the organization with `role` unless they are a member already; true if they were added.
   * Racing calls add them once.
   */
  joinOrganization(organizationId: number, userId: string, role: Role): Promise<boolean>;
  /** Slugs of the organizations the person is a member of that require SSO, sorted. */
  listSsoRequiringOrganizations(userId: string): Promise<string[]>;
  /** Whether the person's account is linked to the provider (a better-auth account with `providerId`). */
  userHasProviderAccount(userId: string, providerId: string): Promise<boolean>;
  /** Whether the person has a password (better-auth's "credential" account). */
  userHasPassword(userId: string): Promise<boolean>;
  getSsoSettings(): Promise<StoredSsoSettings | null>;
  /** Sets (or with null removes) the instance settings' provider. */
  setSsoSettings(settings: StoredSsoSettings | null): Promise<void>;
}
