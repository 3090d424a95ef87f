// Faultline's hooks around single sign-on (auth/sso.ts), run by better-auth (create-auth.ts):
// - before: the callback's query checked (a 400 for anything odd), direct ID token sign-in refused, and a password
//   sign-in refused for a member of an organization that requires SSO (core/sso.ts);
// - before a user is created by the callback: only for an address the provider says is verified;
// - after the callback: a person with two-factor on gets better-auth's pending second step instead of the session,
//   everyone else joins the organizations auto-joining their domain (core/sso.ts);
// - a provider account added to a person who has a password (the link after signing in with it) is recorded in the
//   instance's security log.
import { APIError, type createAuthMiddleware } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import { generateRandomString } from "better-auth/crypto";
import { TWO_FACTOR_LIMITS } from "../config/limits";
import { autoJoinOrganizations, passwordSignInRefusal, recordSsoLink, SSO_PROVIDER_ID } from "../core/sso";
import type { Db } from "../storage/db";
import { createStore } from "../storage/kysely";
import { CLIENT_IP_HEADER } from "./client-ip";
import { checkCallbackInput, refuseDirectIdToken } from "./sso";

export { ssoPlugin, type SsoProviderConfig } from "./sso";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const ipOf = (ctx: { headers?: Headers } | null) => ctx?.headers?.get(CLIENT_IP_HEADER) ?? null;

export async function beforeSsoRequest(db: Db, ctx: HookContext): Promise<void> {
  if (ctx.path === "/callback/:id") return checkCallbackInput(ctx.query, ctx.body);
  if (ctx.path === "/sign-in/social" || ctx.path === "/link-social") return refuseDirectIdToken(ctx.body);
  if (ctx.path === "/sign-in/email") {
    const email = (ctx.body as { email?: unknown } | undefined)?.email;
    if (typeof email !== "string" || email.length > 320) return;
    const refusal = await passwordSignInRefusal(createStore(db), email);
    if (refusal) throw new APIError("FORBIDDEN", { message: refusal, code: "SSO_REQUIRED" });
  }
}

/**
 * better-auth's databaseHooks.user.create.before: an account created by the provider's callback needs an address the
 * provider says is verified. Accounts made elsewhere (setup, the CLI, invitations) are not its business.
 */
export async function beforeSsoUserCreated(user: { emailVerified?: unknown }, ctx: { path?: string; params?: Record<string, unknown> } | null): Promise<void> {
  if (ctx?.path !== "/callback/:id" || ctx.params?.id !== SSO_PROVIDER_ID) return;
  if (user.emailVerified !== true)
    throw new APIError("FORBIDDEN", { message: "The identity provider has not verified this e-mail address", code: "email_not_verified" });
}

/**
 * A person with two-factor on (a password account linked to the provider) still gives their code after a single
 * sign-on: the session the callback made goes, and, as better-auth's twoFactor plugin does after a password, a signed
 * `two_factor` cookie names the pending sign-in; the browser goes to the code page, then where it was going.
 */
async function requireSecondStep(ctx: HookContext, session: { session: { token: string }; user: { id: string } }, basePath: string): Promise<never> {
  deleteSessionCookie(ctx, true);
  await ctx.context.internalAdapter.deleteSession(session.session.token);
  ctx.context.setNewSession(null);
  const maxAge = TWO_FACTOR_LIMITS.challengeSeconds;
  const cookie = ctx.context.createAuthCookie("two_factor", { maxAge });
  const identifier = `2fa-${generateRandomString(20)}`;
  const expiresAt = new Date(Date.now() + maxAge * 1000);
  await ctx.context.internalAdapter.createVerificationValue({ value: session.user.id, identifier, expiresAt });
  await ctx.context.internalAdapter.createVerificationValue({ value: "0", identifier: `2fa-attempts-${identifier}`, expiresAt });
  await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
  // Where the callback was sending the browser (the sign-in's next page), without the base path.
  let path = "/en/orgs";
  try {
    const location = new URL(ctx.context.responseHeaders?.get("location") ?? "", "http://x").pathname;
    path = basePath && location.startsWith(`${basePath}/`) ? location.slice(basePath.length) : location;
  } catch {
    // keep the default
  }
  const locale = /^\/([a-z]{2})\//.exec(path)?.[1] ?? "en";
  throw ctx.redirect(`${basePath}/${locale}/sign-in/two-factor?next=${encodeURIComponent(path.startsWith(`/${locale}/`) ? path : `/${locale}/orgs`)}`);
}

/** After a successful callback that signed someone in: the second step if two-factor is on, else auto-join by domain. */
export async function afterSsoCallback(db: Db, basePath: string, ctx: HookContext): Promise<void> {
  const session = ctx.context.newSession;
  if (!session || ctx.params?.id !== SSO_PROVIDER_ID) return;
  if ((session.user as { twoFactorEnabled?: unknown }).twoFactorEnabled === true) await requireSecondStep(ctx, session, basePath);
  const store = createStore(db);
  const user = await store.getUserById(session.user.id);
  if (!user) return;
  await autoJoinOrganizations(store, user, session.user.emailVerified === true, ipOf(ctx));
}

/** A provider account added to someone with a password: a link, recorded. */
export async function afterSsoAccountCreated(db: Db, account: { providerId: string; userId: string }, ctx: { headers?: Headers } | null): Promise<void> {
  if (account.providerId !== SSO_PROVIDER_ID) return;
  const store = createStore(db);
  if (!(await store.userHasPassword(account.userId))) return;
  const user = await store.getUserById(account.userId);
  if (user) await recordSsoLink(store, user, ipOf(ctx));
}
