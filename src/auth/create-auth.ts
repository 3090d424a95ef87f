// better-auth configured for Faultline: email and password, with two-factor sign-in (auth/two-factor.ts), sessions in
// Faultline's own database.
import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import type { Db } from "../storage/db";
import { AUTH_LIMITS, TWO_FACTOR_LIMITS } from "../config/limits";
import { CLIENT_IP_HEADER } from "./client-ip";
import { refuseRevokedSessions } from "./revoked-sessions";
import { afterSessionEnding, afterSignOut, beforeSessionEnding } from "./session-hooks";
import { afterTwoFactorChange, beforeTwoFactorCode, twoFactorPlugin } from "./two-factor";
import { afterSsoAccountCreated, afterSsoCallback, beforeSsoRequest, beforeSsoUserCreated, ssoPlugin, type SsoProviderConfig } from "./sso-hooks";

export type CreateAuthOptions = {
  db: Db;
  secret: string;
  /** Public URL of the install without the base path, e.g. https://faultline.example.com */
  publicUrl: string;
  /** The application's base path ("" or e.g. "/monitor"). */
  basePath: string;
  /**
   * Sends a password-reset link (src/mail/account-mail.ts passwordResetSender); called only for an address that has an
   * account, and must not throw or wait for the mail (the answer is the same either way). Absent: nothing is sent.
   */
  sendPasswordReset?: (request: { email: string; token: string; locale: string }) => void;
  /** Single sign-on's OpenID Connect provider (auth/sso.ts); absent or null: none. */
  sso?: SsoProviderConfig | null;
  /**
   * Called after an endpoint that may have ended some of the person's sessions succeeded (auth/session-hooks.ts), so
   * that their live streams close at once. Absent: they close at their next tick.
   */
  onSessionsEnded?: (userId: string) => Promise<void>;
};

/** The reset page's path for a locale: what the forgot-password form passes as redirectTo. */
export const resetPasswordPath = (basePath: string, locale: string) => `${basePath}/${locale}/reset-password`;

/** A reset token as better-auth makes them; anything else (NUL bytes, megabytes) never reaches the database. */
const RESET_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

/** The locale of the reset page better-auth's link would lead to (its callbackURL), as the person asked in it. */
function resetLocale(url: string): string {
  try {
    const callback = new URL(url).searchParams.get("callbackURL") ?? "";
    return /\/([a-z]{2})\/reset-password$/.exec(new URL(callback, "http://x").pathname)?.[1] ?? "en";
  } catch {
    return "en";
  }
}

/** Where better-auth's endpoints live. A path in better-auth's baseURL would replace this, so the app's base path goes here. */
export const authPath = (basePath: string) => `${basePath}/api/auth`;

export { CLIENT_IP_HEADER } from "./client-ip";

export function createAuth({ db, secret, publicUrl, basePath, sendPasswordReset, onSessionsEnded, sso }: CreateAuthOptions) {
  const auth = betterAuth({
    appName: "Faultline",
    baseURL: publicUrl,
    basePath: authPath(basePath),
    secret,
    database: { db: db.kysely, type: db.dialect },
    telemetry: { enabled: false },
    plugins: sso ? [twoFactorPlugin(secret), ssoPlugin(sso)] : [twoFactorPlugin(secret)],
    // Where better-auth sends a browser whose sign-in with the provider failed before its own error address was known.
    onAPIError: { errorURL: `${publicUrl}${basePath}/sign-in/sso` },
    emailAndPassword: {
      enabled: true,
      // Accounts are created by the first-run setup page, the CLI or an invitation, never by open sign-up.
      disableSignUp: true,
      minPasswordLength: AUTH_LIMITS.minPasswordLength,
      maxPasswordLength: AUTH_LIMITS.maxPasswordLength,
      // A reset link works once (better-auth consumes its token) and for an hour; a reset signs out every session.
      resetPasswordTokenExpiresIn: AUTH_LIMITS.passwordResetTokenSeconds,
      revokeSessionsOnPasswordReset: true,
      // Called after the reset deleted every session of the person: their open live streams end at once too.
      onPasswordReset: async ({ user }) => {
        await onSessionsEnded?.(user.id);
      },
      sendResetPassword: async ({ user, url, token }) => {
        sendPasswordReset?.({ email: user.email, token, locale: resetLocale(url) });
      },
    },
    session: {
      modelName: "sessions",
      expiresIn: AUTH_LIMITS.sessionLifetimeSeconds,
      updateAge: AUTH_LIMITS.sessionRefreshSeconds,
      fields: {
        expiresAt: "expires_at",
        createdAt: "created_at",
        updatedAt: "updated_at",
        ipAddress: "ip_address",
        userAgent: "user_agent",
        userId: "user_id",
      },
    },
    user: {
      modelName: "users",
      fields: { emailVerified: "email_verified", createdAt: "created_at", updatedAt: "updated_at" },
      additionalFields: {
        isSuperuser: { type: "boolean", fieldName: "is_superuser", defaultValue: false, input: false },
      },
    },
    account: {
      // Never link a provider account to a password account by its e-mail address: the person signs in with the
      // password first, then links (web/actions/sso.action.ts).
      accountLinking: { enabled: true, disableImplicitLinking: true },
      modelName: "accounts",
      fields: {
        accountId: "account_id",
        providerId: "provider_id",
        userId: "user_id",
        accessToken: "access_token",
        refreshToken: "refresh_token",
        idToken: "id_token",
        accessTokenExpiresAt: "access_token_expires_at",
        refreshTokenExpiresAt: "refresh_token_expires_at",
        createdAt: "created_at",
        updatedAt: "updated_at",
      },
    },
    verification: {
      modelName: "verifications",
      fields: { expiresAt: "expires_at", createdAt: "created_at", updatedAt: "updated_at" },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        await beforeSessionEnding(db, ctx);
        if (ctx.path.startsWith("/two-factor/")) return beforeTwoFactorCode(db, secret, ctx);
        await beforeSsoRequest(db, ctx);
        if (ctx.path !== "/reset-password" && ctx.path !== "/reset-password/:token") return;
        const body = ctx.body as { token?: unknown } | undefined;
        const token = body?.token ?? ctx.query?.token ?? ctx.params?.token;
        if (token !== undefined && (typeof token !== "string" || !RESET_TOKEN.test(token)))
          throw new APIError("BAD_REQUEST", { message: "Invalid token", code: "INVALID_TOKEN" });
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (ctx.path.startsWith("/two-factor/")) await afterTwoFactorChange(db, ctx);
        if (ctx.path === "/callback/:id") await afterSsoCallback(db, basePath, ctx);
        if (ctx.path === "/sign-out") await afterSignOut(db, ctx);
        await afterSessionEnding(db, ctx, onSessionsEnded);
      }),
    },
    databaseHooks: {
      // A first single sign-on creates an account only for an address the provider verified (auth/sso-hooks.ts).
      user: { create: { before: async (user, ctx) => beforeSsoUserCreated(user, ctx ?? null) } },
      account: { create: { after: async (account, ctx) => afterSsoAccountCreated(db, account, ctx ?? null) } },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      modelName: "rate_limits",
      fields: { lastRequest: "last_request" },
      window: AUTH_LIMITS.requestWindowSeconds,
      max: AUTH_LIMITS.requestsPerWindow,
      customRules: {
        "/sign-in/email": { window: AUTH_LIMITS.signInWindowSeconds, max: AUTH_LIMITS.signInAttemptsPerWindow },
        "/change-password": { window: AUTH_LIMITS.signInWindowSeconds, max: AUTH_LIMITS.signInAttemptsPerWindow },
        "/request-password-reset": { window: AUTH_LIMITS.passwordResetWindowSeconds, max: AUTH_LIMITS.passwordResetRequestsPerWindow },
        "/reset-password": { window: AUTH_LIMITS.signInWindowSeconds, max: AUTH_LIMITS.signInAttemptsPerWindow },
        "/two-factor/verify-totp": { window: TWO_FACTOR_LIMITS.codeWindowSeconds, max: TWO_FACTOR_LIMITS.codeAttemptsPerWindow },
        "/two-factor/verify-backup-code": { window: TWO_FACTOR_LIMITS.codeWindowSeconds, max: TWO_FACTOR_LIMITS.codeAttemptsPerWindow },
        "/two-factor/enable": { window: AUTH_LIMITS.signInWindowSeconds, max: AUTH_LIMITS.signInAttemptsPerWindow },
        "/two-factor/disable": { window: AUTH_LIMITS.signInWindowSeconds, max: AUTH_LIMITS.signInAttemptsPerWindow },
        "/two-factor/generate-backup-codes": { window: AUTH_LIMITS.signInWindowSeconds, max: AUTH_LIMITS.signInAttemptsPerWindow },
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: publicUrl.startsWith("https://"),
      cookiePrefix: "faultline",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
  });
  // A session signed out while the disk was full is refused though its row is still there (auth/revoked-sessions.ts).
  // Registered now, this runs before any request, which awaits the same context; a context that fails to resolve
  // fails those requests, as ever.
  void auth.$context.then(refuseRevokedSessions, () => undefined);
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
