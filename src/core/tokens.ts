// Personal API tokens: shown once at creation, stored only as a SHA-256 hash.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { ApiToken, Store, User } from "../storage/ports";
import { requireId } from "./access";
import { actingUser, type CoreContext } from "./context";
import { notFound } from "./errors";
import { nameSchema, parseInput } from "./schemas";

/**
 * Tokens carry the `sntryu_` prefix of Sentry user tokens followed by 64 hex digits: sentry-cli recognises that
 * shape as a user token and sends it unchanged. Tokens are random (256 bits), so a fast hash is enough to store them.
 */
const TOKEN_PREFIX = "sntryu_";

export const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export async function createToken(ctx: CoreContext, input: unknown): Promise<{ token: ApiToken; plaintext: string }> {
  const { name } = parseInput(z.object({ name: nameSchema }), input);
  const plaintext = `${TOKEN_PREFIX}${randomBytes(32).toString("hex")}`;
  const token = await ctx.store.createToken({ userId: actingUser(ctx).id, name, tokenHash: hashToken(plaintext), tokenSuffix: plaintext.slice(-4) });
  return { token, plaintext };
}

export function listTokens(ctx: CoreContext): Promise<ApiToken[]> {
  return ctx.store.listTokens(actingUser(ctx).id);
}

export async function deleteToken(ctx: CoreContext, tokenId: number): Promise<void> {
  if (!(await ctx.store.deleteToken(actingUser(ctx).id, requireId(tokenId, "Token")))) throw notFound("Token");
}

/** The user a bearer token belongs to, or null. */
export async function authenticateToken(store: Store, bearer: string): Promise<User | null> {
  if (bearer.length > 200) return null;
  const found = await store.useToken(hashToken(bearer), new Date().toISOString());
  return found?.user ?? null;
}
