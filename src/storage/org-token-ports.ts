// Organization auth tokens: credentials of an organization (not of a person) for CI and sentry-cli.

export type OrgToken = {
  id: number;
  organizationId: number;
  name: string;
  /** The token's last 4 characters, to tell tokens apart; the token itself is never stored. */
  tokenSuffix: string;
  createdBy: { id: string; name: string; email: string } | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

export interface OrgTokenStore {
  createOrgToken(input: {
    organizationId: number;
    name: string;
    tokenHash: string;
    tokenSuffix: string;
    createdBy: string;
    createdAt: string;
  }): Promise<OrgToken>;
  /** The organization's tokens that are not revoked, oldest first. */
  listOrgTokens(organizationId: number): Promise<OrgToken[]>;
  /** Revokes a token of this organization; false if there is no such token or it was revoked already. */
  revokeOrgToken(organizationId: number, tokenId: number, now: string): Promise<boolean>;
  /** The unrevoked token a hash belongs to, recording the use (at most once a minute); null otherwise. */
  useOrgToken(tokenHash: string, now: string): Promise<OrgToken | null>;
}
