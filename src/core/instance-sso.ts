// Single sign-on's provider in the instance settings (issue 20): superusers only; the environment's
// (FAULTLINE_OIDC_*) takes precedence and is shown read-only. The client secret is never shown back: only whether one
// is set and its last four characters. Each change is recorded in the instance's security log (without the secret).
// The issuer is the operator's choice, not a user's: a loopback or private address is allowed (README "Single sign-on").
import { z } from "zod";
import { SSO_LIMITS } from "../config/limits";
import type { StoredSsoSettings } from "../storage/sso-ports";
import { audit } from "./audit";
import { actingUser, type CoreContext } from "./context";
import { AppError, forbidden } from "./errors";
import { parseInput } from "./schemas";

export type InstanceSsoView = {
  /** Where the provider in use comes from. */
  source: "environment" | "settings" | "none";
  issuer: string | null;
  clientId: string | null;
  name: string | null;
  /** The secret's last four characters, or null; never the secret. */
  secretHint: string | null;
};

/** The environment's provider, as the core may see it (no secret). */
export type EnvSso = { issuer: string; clientId: string; name: string; secretHint: string } | null;

const hint = (secret: string) => (secret.length >= 12 ? `…${secret.slice(-4)}` : "…");

function requireSuperuser(ctx: CoreContext): void {
  if (!actingUser(ctx).isSuperuser) throw forbidden("Only superusers can see the instance settings");
}

export async function instanceSsoSettings(
  ctx: CoreContext,
  env: EnvSso,
  storedSecretHint: (stored: StoredSsoSettings) => Promise<string | null>,
): Promise<InstanceSsoView> {
  requireSuperuser(ctx);
  if (env) return { source: "environment", issuer: env.issuer, clientId: env.clientId, name: env.name, secretHint: env.secretHint };
  const stored = await ctx.store.getSsoSettings();
  if (!stored) return { source: "none", issuer: null, clientId: null, name: null, secretHint: null };
  return { source: "settings", issuer: stored.issuer, clientId: stored.clientId, name: stored.name, secretHint: await storedSecretHint(stored) };
}

export const secretHintOf = hint;

const printable = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter the ${what}`)
    .max(max, `At most ${max} characters`)
    .regex(/^[\x20-\x7e]+$/, "Printable characters only");

const saveSchema = z.object({
  issuer: z
    .string()
    .trim()
    .max(SSO_LIMITS.maxIssuerLength, `At most ${SSO_LIMITS.maxIssuerLength} characters`)
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === "https:" || u.protocol === "http:") && !u.search && !u.hash && !u.username && !u.password;
      } catch {
        return false;
      }
    }, "Enter the provider's issuer URL, such as https://login.example.com/realms/acme")
    .transform((v) => v.replace(/\/+$/, "")),
  clientId: printable(SSO_LIMITS.maxIssuerLength, "client id"),
  // Empty: keep the stored secret.
  clientSecret: z
    .string()
    .max(SSO_LIMITS.maxClientSecretLength, "Too long")
    .regex(/^[\x20-\x7e]*$/, "Printable characters only")
    .optional(),
  name: printable(SSO_LIMITS.maxNameLength, "name for the sign-in button"),
});

/**
 * Stores the provider (or with `remove` removes it). Refused while the environment sets one. `encrypt` turns the
 * client secret into its stored form (auth/sso-settings.ts).
 */
export async function saveInstanceSso(ctx: CoreContext, input: unknown, envConfigured: boolean, encrypt: (secret: string) => Promise<string>): Promise<void> {
  requireSuperuser(ctx);
  if (envConfigured) throw new AppError("bad_request", "Single sign-on is set by the environment (FAULTLINE_OIDC_ISSUER); change it there");
  const old = await ctx.store.getSsoSettings();
  if (input && typeof input === "object" && (input as { remove?: unknown }).remove === true) {
    if (!old) return;
    await ctx.store.setSsoSettings(null);
    await audit(ctx, {
      organizationId: null,
      event: "sso.settings-edit",
      note: `removed single sign-on with ${old.issuer}`,
      data: { old: { issuer: old.issuer, clientId: old.clientId, name: old.name }, new: null },
    });
    return;
  }
  const v = parseInput(saveSchema, input);
  const secret = v.clientSecret ?? "";
  if (!secret && !old) throw new AppError("bad_request", "Enter the client secret", { clientSecret: ["Enter the client secret"] });
  const stored: StoredSsoSettings = {
    issuer: v.issuer,
    clientId: v.clientId,
    name: v.name,
    clientSecret: secret ? await encrypt(secret) : old!.clientSecret,
    updatedAt: new Date().toISOString(),
  };
  await ctx.store.setSsoSettings(stored);
  await audit(ctx, {
    organizationId: null,
    event: "sso.settings-edit",
    note: `set single sign-on to ${v.issuer}`,
    data: {
      old: old ? { issuer: old.issuer, clientId: old.clientId, name: old.name } : null,
      new: { issuer: v.issuer, clientId: v.clientId, name: v.name },
      secretChanged: secret !== "",
    },
  });
}
