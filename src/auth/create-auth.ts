// better-auth configured for Faultline: email and password only, sessions in Faultline's own database.
import { betterAuth } from "better-auth";
import type { Db } from "../storage/db";
import { AUTH_LIMITS } from "../config/limits";

export type CreateAuthOptions = {
  db: Db;
  secret: string;
  /** Public URL of the install without the base path, e.g. https://faultline.example.com */
  publicUrl: string;
  /** The application's base path ("" or e.g. "/monitor"). */
  basePath: string;
};

/** Where better-auth's endpoints live. A path in better-auth's baseURL would replace this, so the app's base path goes here. */
export const authPath = (basePath: string) => `${basePath}/api/auth`;

/** Header the Faultline server sets from the socket (or a trusted proxy); clients cannot forge it. */
export const CLIENT_IP_HEADER = "x-faultline-client-ip";

export function createAuth({ db, secret, publicUrl, basePath }: CreateAuthOptions) {
  return betterAuth({
    appName: "Faultline",
    baseURL: publicUrl,
    basePath: authPath(basePath),
    secret,
    database: { db: db.kysely, type: db.dialect },
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      // Accounts are created by the first-run setup page, the CLI or an invitation, never by open sign-up.
      disableSignUp: true,
      minPasswordLength: AUTH_LIMITS.minPasswordLength,
      maxPasswordLength: AUTH_LIMITS.maxPasswordLength,
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
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: publicUrl.startsWith("https://"),
      cookiePrefix: "faultline",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
