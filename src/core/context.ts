// What every core service receives: the store and who is acting.
import type { Store, User } from "../storage/ports";
import { forbidden } from "./errors";

/**
 * A person, signed in or through a personal API token: acts with their roles in each organization. `token` is the
 * personal token the request came with: its scopes narrow what the API routes let it do (null: full access).
 */
export type UserActor = { user: User; token?: { id: number; scopes: readonly string[] | null } };
/**
 * An organization auth token (core/org-tokens.ts): acts for one organization, never as a person, with the
 * permissions its scopes give (core/permissions.ts ORG_TOKEN_SCOPES).
 */
export type OrgTokenActor = { orgToken: { id: number; organizationId: number; scopes: readonly string[] } };
export type Actor = UserActor | OrgTokenActor;

/** `ip`: the client's address (the server's x-faultline-client-ip), recorded in the audit trail; absent in the CLI. */
export type CoreContext = { store: Store; actor: Actor; ip?: string | null };
/** A context whose actor is a person (pages and server actions: a signed-in user). */
export type UserContext = { store: Store; actor: UserActor; ip?: string | null };

/** The person acting; what only a person can do (own an organization, comment, own personal tokens) is forbidden to an organization token. */
export function actingUser(ctx: CoreContext): User {
  if ("orgToken" in ctx.actor) throw forbidden("Organization tokens cannot do this");
  return ctx.actor.user;
}

/** The token scopes that limit this actor on the web API; null for a browser session or a token with full access. */
export function actorScopes(actor: Actor): readonly string[] | null {
  if ("orgToken" in actor) return actor.orgToken.scopes;
  return actor.token?.scopes ?? null;
}
