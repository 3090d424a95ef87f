// Faultline's hooks around single sign-on (auth/sso.ts), run by better-auth (create-auth.ts):
// - before: the callback's query checked (a 400 for anything odd), direct ID token sign-in refused, and a password
//   sign-in refused for a member of an organization that requires SSO (core/sso.ts);
// - before a user is created by the callback: only for an address the provider says is verified;
// - after the callback: the person joins the organizations auto-joining their domain (core/sso.ts);
// - a provider account added to a person who has a password (the link after signing in with it) is recorded in the
//   instance's security log.
import { APIError, type createAuthMiddleware } from "better-auth/api";
import { autoJoinOrganizations, passwordSignInRefusal, recordSsoLink, SSO_PROVIDER_ID } from "../core/sso";
import type { Db } from "../storage/db";
import { createStore } from "../storage/kysely";
import { CLIENT_IP_HEADER } from "./create-auth";
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
  if (user.emailVerified !== true) throw new APIError("FORBIDDEN", { message: "The identity provider has not verified this e-mail address", code: "email_not_verified" });
}

/** After a successful callback that signed someone in: auto-join by domain. */
export async function afterSsoCallback(db: Db, ctx: HookContext): Promise<void> {
  const session = ctx.context.newSession;
  if (!session || ctx.params?.id !== SSO_PROVIDER_ID) return;
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
