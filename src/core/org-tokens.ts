// Organization auth tokens: credentials of an organization for CI and sentry-cli, not of a person. They have
// Sentry's shape, `sntrys_<base64 JSON payload>_<secret>`, the payload naming the server and the organization so
// that sentry-cli needs nothing but the token; their scope is `org:ci` (core/permissions.ts ORG_TOKEN_SCOPES).
// The token is shown once at creation and kept only as a SHA-256 hash.
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { OrgToken } from "../storage/org-token-ports";
import type { Store } from "../storage/ports";
import { requireId, requireOrg } from "./access";
import { audit } from "./audit";
import { type Actor, actingUser, type CoreContext, type OrgTokenActor } from "./context";
import { notFound } from "./errors";
import type { OrgTokenScope } from "./permissions";
import { nameSchema, parseInput } from "./schemas";
import { authenticateToken, hashToken } from "./tokens";

export const ORG_TOKEN_PREFIX = "sntrys_";
/** Every organization token carries Sentry's CI scope and nothing else. */
const SCOPES: readonly OrgTokenScope[] = ["org:ci"];

/**
 * A new token for the organization at this server address: the payload is what sentry-cli reads (`url`,
 * `region_url`, `org`; Sentry adds `iat`), the secret 32 random bytes in unpadded base64, as sentry-cli checks.
 */
export function generateOrgToken(serverUrl: string, orgSlug: string, now = Date.now()): string {
  const payload = JSON.stringify({ iat: now / 1000, url: serverUrl, region_url: serverUrl, org: orgSlug });
  const secret = randomBytes(32).toString("base64").replace(/=+$/, "");
  return `${ORG_TOKEN_PREFIX}${Buffer.from(payload, "utf8").toString("base64")}_${secret}`;
}

/** Makes a token named `input.name`; `serverUrl` is the address (with the base path) that clients reach Faultline at. */
export async function createOrgToken(ctx: CoreContext, orgSlug: string, input: unknown, serverUrl: string): Promise<{ token: OrgToken; plaintext: string }> {
  const { org } = await requireOrg(ctx, orgSlug, "org:tokens");
  const { name } = parseInput(z.object({ name: nameSchema }), input);
  const plaintext = generateOrgToken(serverUrl, org.slug);
  const token = await ctx.store.createOrgToken({
    organizationId: org.id,
    name,
    tokenHash: hashToken(plaintext),
    tokenSuffix: plaintext.slice(-4),
    createdBy: actingUser(ctx).id,
    createdAt: new Date().toISOString(),
  });
  await audit(ctx, {
    organizationId: org.id,
    event: "orgauthtoken.create",
    target: token.id,
    note: `created the auth token ${name}`,
    data: { name, tokenSuffix: token.tokenSuffix },
  });
  return { token, plaintext };
}

export async function listOrgTokens(ctx: CoreContext, orgSlug: string): Promise<OrgToken[]> {
  const { org } = await requireOrg(ctx, orgSlug, "org:tokens");
  return ctx.store.listOrgTokens(org.id);
}

export async function revokeOrgToken(ctx: CoreContext, orgSlug: string, tokenId: unknown): Promise<void> {
  const { org } = await requireOrg(ctx, orgSlug, "org:tokens");
  const id = requireId(tokenId, "Token");
  const token = (await ctx.store.listOrgTokens(org.id)).find((t) => t.id === id);
  if (!(await ctx.store.revokeOrgToken(org.id, id, new Date().toISOString()))) throw notFound("Token");
  await audit(ctx, {
    organizationId: org.id,
    event: "orgauthtoken.remove",
    target: id,
    note: `revoked the auth token ${token?.name ?? id}`,
    data: { name: token?.name ?? null },
  });
}

export const isOrgToken = (bearer: string) => bearer.startsWith(ORG_TOKEN_PREFIX);

/** The organization actor an unrevoked token stands for (recording its use), or null. */
export async function authenticateOrgToken(store: Store, bearer: string): Promise<OrgTokenActor | null> {
  if (!isOrgToken(bearer)) return null;
  const token = await store.useOrgToken(hashToken(bearer), new Date().toISOString());
  return token ? { orgToken: { id: token.id, organizationId: token.organizationId, scopes: SCOPES } } : null;
}

/** Who a bearer token stands for: an organization (`sntrys_`), or the person owning a personal token; null if nobody. */
export async function authenticateBearer(store: Store, bearer: string): Promise<Actor | null> {
  if (isOrgToken(bearer)) return authenticateOrgToken(store, bearer);
  const found = await authenticateToken(store, bearer);
  return found ? { user: found.user, token: found.token } : null;
}
