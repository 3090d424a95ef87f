// Two-factor sign-in (issue 20) on better-auth's twoFactor plugin: TOTP (RFC 6238) from an authenticator app, and
// recovery codes. Faultline adds what the plugin leaves open:
// - recovery codes are stored as HMAC-SHA-256 hashes keyed with the instance secret (the plugin would encrypt them,
//   so that whoever holds the database and the secret could read them): the code typed is hashed before the plugin
//   compares it, and the plugin drops the matching hash, so each code works once;
// - a TOTP code is accepted once (RFC 6238 §5.2): an accepted code is kept in two_factor_used_codes until it can no
//   longer be valid, and a second use, even racing the first, is refused;
// - attempts are rate-limited per client address (create-auth.ts), on top of the plugin's five codes per sign-in and
//   its lock-out after ten failures in a row;
// - turning two-factor on or off and new recovery codes are recorded in the instance's security log here, after
//   better-auth succeeded, whichever way its endpoint was called (the account page, or its HTTP API directly);
// - turning it on or off signs out the person's other sessions (auth/session-hooks.ts), as a password change does.
import { createHmac } from "node:crypto";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import { twoFactor } from "better-auth/plugins/two-factor";
import { TWO_FACTOR_LIMITS } from "../config/limits";
import type { Db } from "../storage/db";
import { recordTwoFactorChange, type TwoFactorChange } from "../core/two-factor";
import { createStore } from "../storage/kysely";
import { twoFactorStore } from "../storage/kysely/two-factor";
import { CLIENT_IP_HEADER } from "./client-ip";
import { signOutOthersAfterTwoFactor } from "./session-hooks";

const HASHED = "hmac-sha256:";

/** A recovery code's stored form; a stored form is kept as it is (the plugin re-encodes the list after a use). */
export function hashRecoveryCode(secret: string, code: string): string {
  if (code.startsWith(HASHED)) return code;
  return HASHED + createHmac("sha256", secret).update(`faultline-recovery-code:${code.trim()}`).digest("hex");
}

/** The plugin's name for the cookie that carries a sign-in's pending second step. */
const TWO_FACTOR_COOKIE = "two_factor";

/** What the code fields accept: anything else is refused by the plugin or here, never stored or hashed. */
const TOTP_CODE = new RegExp(`^[0-9]{${TWO_FACTOR_LIMITS.totpDigits}}$`);
const RECOVERY_CODE = /^[A-Za-z0-9-]{1,32}$/;

export function twoFactorPlugin(secret: string) {
  return twoFactor({
    issuer: "Faultline",
    totpOptions: { period: TWO_FACTOR_LIMITS.totpPeriodSeconds, digits: TWO_FACTOR_LIMITS.totpDigits },
    twoFactorCookieMaxAge: TWO_FACTOR_LIMITS.challengeSeconds,
    accountLockout: { enabled: true, maxFailedAttempts: TWO_FACTOR_LIMITS.lockOutAfterFailures, durationSeconds: TWO_FACTOR_LIMITS.lockOutSeconds },
    backupCodeOptions: {
      amount: TWO_FACTOR_LIMITS.recoveryCodes,
      length: TWO_FACTOR_LIMITS.recoveryCodeLength,
      storeBackupCodes: {
        encrypt: async (json: string) => JSON.stringify((JSON.parse(json) as string[]).map((code) => hashRecoveryCode(secret, code))),
        decrypt: async (stored: string) => stored,
      },
    },
    schema: {
      user: { fields: { twoFactorEnabled: "two_factor_enabled" } },
      twoFactor: {
        modelName: "two_factors",
        fields: { backupCodes: "backup_codes", userId: "user_id", failedVerificationCount: "failed_verification_count", lockedUntil: "locked_until" },
      },
    },
  });
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The person a code is for: the signed-in one (enrolment), or the one whose sign-in waits for its second step. */
async function codeOwner(ctx: HookContext): Promise<string | null> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user.id;
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
  const challenge = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!challenge) return null;
  const pending = await ctx.context.internalAdapter.findVerificationValue(challenge);
  return pending && pending.expiresAt > new Date() ? pending.value : null;
}

/** What a request will change, noted before the endpoint runs and recorded after it succeeded (keyed by its context). */
const pendingChanges = new WeakMap<object, { userId: string; change: TwoFactorChange }>();

async function noteChange(db: Db, ctx: HookContext): Promise<void> {
  const change: TwoFactorChange | null =
    ctx.path === "/two-factor/disable"
      ? "disabled"
      : ctx.path === "/two-factor/generate-backup-codes"
        ? "recovery-codes"
        : ctx.path === "/two-factor/verify-totp"
          ? "enabled"
          : null;
  if (!change) return;
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (!session) return;
  // A code checked by someone who has two-factor on already changes nothing.
  if (change === "enabled" && (await twoFactorStore({ db: db.kysely, dialect: db.dialect }).userHasTwoFactor(session.user.id))) return;
  pendingChanges.set(ctx.context, { userId: session.user.id, change });
}

/** After a two-factor endpoint: records the change noted before it, if the endpoint succeeded. */
export async function afterTwoFactorChange(db: Db, ctx: HookContext): Promise<void> {
  const pending = pendingChanges.get(ctx.context);
  if (!pending) return;
  pendingChanges.delete(ctx.context);
  const returned: unknown = ctx.context.returned;
  if (isAPIError(returned) || returned instanceof Error || (returned instanceof Response && !returned.ok)) return;
  const store = createStore(db);
  if (pending.change === "enabled" && !(await store.userHasTwoFactor(pending.userId))) return;
  const user = await store.getUserById(pending.userId);
  if (!user) return;
  const signedOut = pending.change === "recovery-codes" ? 0 : await signOutOthersAfterTwoFactor(db, ctx, user.id);
  await recordTwoFactorChange({ store, actor: { user }, ip: ctx.headers?.get(CLIENT_IP_HEADER) ?? null }, pending.change, signedOut);
}

/**
 * Runs before the plugin's code endpoints (create-auth.ts hooks.before): refuses a TOTP code used before, and hands
 * the plugin a recovery code's hash. Returns undefined for every other path.
 */
export async function beforeTwoFactorCode(db: Db, secret: string, ctx: HookContext): Promise<{ context: { body: Record<string, unknown> } } | undefined> {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  await noteChange(db, ctx);
  if (ctx.path === "/two-factor/verify-backup-code") {
    if (typeof body.code !== "string" || !RECOVERY_CODE.test(body.code))
      throw new APIError("UNAUTHORIZED", { message: "Invalid backup code", code: "INVALID_BACKUP_CODE" });
    return { context: { body: { ...body, code: hashRecoveryCode(secret, body.code) } } };
  }
  if (ctx.path === "/two-factor/verify-totp") {
    if (typeof body.code !== "string" || !TOTP_CODE.test(body.code)) throw new APIError("UNAUTHORIZED", { message: "Invalid code", code: "INVALID_CODE" });
    const userId = await codeOwner(ctx);
    // No session and no pending sign-in: the plugin answers that itself.
    if (!userId) return undefined;
    const now = Date.now();
    const fresh = await twoFactorStore({ db: db.kysely, dialect: db.dialect }).claimTotpCode(
      userId,
      body.code,
      new Date(now + TWO_FACTOR_LIMITS.usedCodeSeconds * 1000).toISOString(),
      new Date(now).toISOString(),
    );
    if (!fresh) throw new APIError("UNAUTHORIZED", { message: "This code was already used; wait for the next one", code: "CODE_ALREADY_USED" });
  }
  return undefined;
}
