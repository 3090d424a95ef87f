import { recordUse } from "../storage-full";
import type { ApiToken, ApiTokenStore } from "../ports";
import { type Ctx, nowIso, uniquely } from "./shared";
import { toUser } from "./users";

type TokenRow = {
  id: number;
  user_id: string;
  name: string;
  token_suffix: string;
  created_at: string;
  last_used_at: string | null;
  scopes: string | null;
  expires_at: string | null;
};

/** A stored scope list read leniently: anything but an array of strings is no scope at all (never full access). */
function readScopes(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === "string") : [];
  } catch {
    return [];
  }
}

const toToken = (r: TokenRow): ApiToken => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  tokenSuffix: r.token_suffix,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  scopes: readScopes(r.scopes),
  expiresAt: r.expires_at,
});
const columns = ["id", "user_id", "name", "token_suffix", "created_at", "last_used_at", "scopes", "expires_at"] as const;

export function apiTokenStore({ db }: Ctx): ApiTokenStore {
  return {
    async createToken({ userId, name, tokenHash, tokenSuffix, scopes, expiresAt }) {
      const r = await uniquely("token", () =>
        db
          .insertInto("api_tokens")
          .values({
            user_id: userId,
            name,
            token_hash: tokenHash,
            token_suffix: tokenSuffix,
            created_at: nowIso(),
            scopes: scopes === null ? null : JSON.stringify(scopes),
            expires_at: expiresAt,
          })
          .returning(columns)
          .executeTakeFirstOrThrow(),
      );
      return toToken(r);
    },
    async listTokens(userId) {
      return (await db.selectFrom("api_tokens").select(columns).where("user_id", "=", userId).orderBy("id").execute()).map(toToken);
    },
    async useToken(tokenHash, now) {
      const r = await db
        .selectFrom("api_tokens")
        .innerJoin("users", "users.id", "api_tokens.user_id")
        .select([
          "api_tokens.id",
          "api_tokens.user_id",
          "api_tokens.name",
          "api_tokens.token_suffix",
          "api_tokens.created_at",
          "api_tokens.last_used_at",
          "api_tokens.scopes",
          "api_tokens.expires_at",
          "users.email",
          "users.name as user_name",
          "users.is_superuser",
          "users.created_at as user_created_at",
        ])
        .where("api_tokens.token_hash", "=", tokenHash)
        .executeTakeFirst();
      if (!r) return null;
      // Record the use at most once a minute per token: a busy script must not turn every read into a write. An
      // expired token's attempts are no use.
      const expired = r.expires_at !== null && Date.parse(r.expires_at) <= Date.parse(now);
      if (!expired && (!r.last_used_at || Date.parse(now) - Date.parse(r.last_used_at) > 60_000)) {
        await recordUse(db.updateTable("api_tokens").set({ last_used_at: now }).where("id", "=", r.id).execute(), "tokenUse");
      }
      return {
        token: toToken(r),
        user: toUser({ id: r.user_id, email: r.email, name: r.user_name, is_superuser: r.is_superuser, created_at: r.user_created_at }),
      };
    },
    async deleteToken(userId, tokenId) {
      const r = await db.deleteFrom("api_tokens").where("user_id", "=", userId).where("id", "=", tokenId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
