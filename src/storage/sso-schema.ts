// Single sign-on's tables (migration 0035), as Kysely sees them.

/** A domain whose provider-verified people join the organization at their single sign-on. */
export type SsoAutoJoinDomainsTable = { organization_id: number; domain: string };

/** The provider configured in the instance settings (one row, id 1); client_secret is encrypted (auth/sso-secret.ts). */
export type SsoSettingsTable = { id: number; issuer: string; client_id: string; client_secret: string; name: string; updated_at: string };

export type SsoTables = { sso_auto_join_domains: SsoAutoJoinDomainsTable; sso_settings: SsoSettingsTable };
