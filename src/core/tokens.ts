// Personal API tokens: shown once at creation, stored only as a SHA-256 hash. Each carries the Sentry scopes chosen at
// creation (core/token-scopes.ts) and, optionally, an expiry; tokens made before scopes existed keep full access.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { AUTH_LIMITS } from "../config/limits";
import type { ApiToken, Store, User } from "../storage/ports";
import { requireId } from "./access";
import { audit } from "./audit";
import { actingUser, type CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import { nameSchema, parseInput } from "./schemas";
import { TOKEN_SCOPES, type TokenScope } from "./token-scopes";

/**
 * Tokens carry the `sntryu_` prefix of Sentry user tokens followed by 64 hex digits: sentry-cli recognises that
 * shape as a user token and sends it unchanged. Tokens are random (256 bits), so a fast hash is enough to store them.
 */
const TOKEN_PREFIX = "sntryu_";
const DAY_MS = 24 * 3600 * 1000;

export const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

const scopesSchema = z
  .array(z.enum(TOKEN_SCOPES, { error: "Unknown scope" }), { error: "Choose at least one scope" })
  .min(1, "Choose at least one scope")
  .max(TOKEN_SCOPES.length)
  .transform((list) => TOKEN_SCOPES.filter((s) => list.includes(s)));

/** The last day a token works, as a date ("2027-01-31": valid through that day, UTC), or an ISO instant. */
const expirySchema = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/, "Enter a date")
  .transform((s, c) => {
    const at = Date.parse(s.length === 10 ? `${s}T23:59:59.999Z` : s);
    // A day that does not exist (2030-02-31) would roll over into the next month: refused, not guessed.
    if (Number.isNaN(at) || (s.length === 10 && new Date(at).toISOString().slice(0, 10) !== s)) {
      c.addIssue({ code: "custom", message: "Enter a date" });
      return z.NEVER;
    }
    if (at <= Date.now()) {
      c.addIssue({ code: "custom", message: "The expiry must be in the future" });
      return z.NEVER;
    }
    if (at > Date.now() + AUTH_LIMITS.tokenMaxLifetimeDays * DAY_MS) {
      c.addIssue({ code: "custom", message: `At most ${AUTH_LIMITS.tokenMaxLifetimeDays} days ahead` });
      return z.NEVER;
    }
    return new Date(at).toISOString();
  });

const createSchema = z.object({ name: nameSchema, scopes: scopesSchema, expiresAt: expirySchema.optional() });

async function storeToken(
  ctx: CoreContext,
  name: string,
  scopes: TokenScope[] | null,
  expiresAt: string | null,
): Promise<{ token: ApiToken; plaintext: string }> {
  const plaintext = `${TOKEN_PREFIX}${randomBytes(32).toString("hex")}`;
  const token = await ctx.store.createToken({
    userId: actingUser(ctx).id,
    name,
    tokenHash: hashToken(plaintext),
    tokenSuffix: plaintext.slice(-4),
    scopes,
    expiresAt,
  });
  await audit(ctx, {
    organizationId: null,
    event: "api-token.create",
    target: token.id,
    note: `created the personal token ${name}`,
    data: { name, scopes: scopes ?? "full access", expiresAt },
  });
  return { token, plaintext };
}

/** Makes a token with `input.name`, `input.scopes` (at least one of Sentry's) and an optional `input.expiresAt`. */
export async function createToken(ctx: CoreContext, input: unknown): Promise<{ token: ApiToken; plaintext: string }> {
  const { name, scopes, expiresAt } = parseInput(createSchema, input);
  return storeToken(ctx, name, scopes, expiresAt ?? null);
}

/**
 * A token with full access (no scopes: whatever its owner's role allows, as tokens made before scopes), for the
 * operator's `faultline createtoken` without --scope; the account page always asks for scopes.
 */
export async function createFullAccessToken(ctx: CoreContext, input: unknown): Promise<{ token: ApiToken; plaintext: string }> {
  const { name, expiresAt } = parseInput(createSchema.omit({ scopes: true }), input);
  return storeToken(ctx, name, null, expiresAt ?? null);
}

export function listTokens(ctx: CoreContext): Promise<ApiToken[]> {
  return ctx.store.listTokens(actingUser(ctx).id);
}

export async function deleteToken(ctx: CoreContext, tokenId: number): Promise<void> {
  const id = requireId(tokenId, "Token");
  const token = (await ctx.store.listTokens(actingUser(ctx).id)).find((t) => t.id === id);
  if (!token || !(await ctx.store.deleteToken(actingUser(ctx).id, id))) throw notFound("Token");
  await audit(ctx, {
    organizationId: null,
    event: "api-token.remove",
    target: id,
    note: `revoked the personal token ${token.name}`,
    data: { name: token.name },
  });
}

/** Whether the token has passed its expiry at `now`. */
export const tokenExpired = (token: Pick<ApiToken, "expiresAt">, now = Date.now()) => token.expiresAt !== null && Date.parse(token.expiresAt) <= now;

/** What a personal token stands for: its owner, the token (its id and scopes; null scopes: full access). */
export type TokenUse = { user: User; token: { id: number; scopes: readonly TokenScope[] | null } };

/**
 * The user a bearer token belongs to with the token's scopes, or null when no token has this value. An expired
 * token is refused with Sentry's 401 "Token expired".
 */
export async function authenticateToken(store: Store, bearer: string): Promise<TokenUse | null> {
  if (bearer.length > 200) return null;
  const found = await store.useToken(hashToken(bearer), new Date().toISOString());
  if (!found) return null;
  if (tokenExpired(found.token)) throw new AppError("unauthorized", "Token expired");
  const scopes = found.token.scopes === null ? null : TOKEN_SCOPES.filter((s) => found.token.scopes!.includes(s));
  return { user: found.user, token: { id: found.token.id, scopes } };
}
