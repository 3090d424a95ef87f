// Accounts: the operations the core needs from the auth layer (implemented over better-auth in src/auth), and who may
// create one. Accounts come to be only through the first-run setup, a superuser (the CLI's `createuser`, or the
// instance settings) or someone accepting an invitation to their own address (core/invitations.ts).
import { z } from "zod";
import type { Page, PageRequest, Store, User } from "../storage/ports";
import { actingUser, type CoreContext } from "./context";
import { AppError, forbidden } from "./errors";
import { emailSchema, nameSchema, parseInput, passwordSchema } from "./schemas";

export interface Accounts {
  /** Creates a user with a password credential. conflict when the e-mail is taken. */
  createUser(input: { email: string; password: string; name: string; isSuperuser?: boolean }): Promise<User>;
}

export const newUserSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: nameSchema.optional(),
  isSuperuser: z.boolean().optional(),
});

/** Creates a user from validated input (CLI `createuser`, a superuser's instance settings). */
export async function registerUser(accounts: Accounts, store: Store, input: unknown): Promise<User> {
  const { email, password, name, isSuperuser } = parseInput(newUserSchema, input);
  if (await store.getUserByEmail(email)) throw new AppError("conflict", "An account with this e-mail address already exists", { email: ["Already taken"] });
  return accounts.createUser({ email, password, name: name ?? email.split("@")[0] ?? email, isSuperuser });
}

/** Only an install superuser manages accounts; anyone else is refused before any input is read. */
function requireSuperuser(ctx: CoreContext): void {
  if (!actingUser(ctx).isSuperuser) throw forbidden("Only superusers can manage accounts");
}

/** A superuser creates an account (instance settings), a superuser too if they say so. */
export async function createAccount(ctx: CoreContext, accounts: Accounts, input: unknown): Promise<User> {
  requireSuperuser(ctx);
  return registerUser(accounts, ctx.store, input);
}

/** Every account of the install, by e-mail, for a superuser. */
export async function listAccounts(ctx: CoreContext, page: PageRequest): Promise<Page<User>> {
  requireSuperuser(ctx);
  return ctx.store.listUsers(page);
}

/**
 * First run: when no user exists, the setup page creates the owner, a superuser, with a first organization.
 * Refuses once any user exists, so the setup page cannot be replayed to take over an install.
 */
export async function setupFirstUser(accounts: Accounts, store: Store, input: unknown): Promise<{ user: User; orgSlug: string }> {
  const parsed = parseInput(newUserSchema.extend({ organization: nameSchema }), input);
  const alreadySetUp = () => new AppError("conflict", "Faultline is already set up; sign in instead");
  if ((await store.countUsers()) > 0) throw alreadySetUp();
  // Claimed atomically: of two setups racing, one gets the key and the other is refused.
  if (!(await store.claimSetting("setup", new Date().toISOString()))) throw alreadySetUp();
  let user: User;
  try {
    user = await accounts.createUser({
      email: parsed.email,
      password: parsed.password,
      name: parsed.name ?? parsed.email.split("@")[0] ?? parsed.email,
      isSuperuser: true,
    });
  } catch (err) {
    await store.releaseSetting("setup");
    throw err;
  }
  const { createOrganization } = await import("./organizations");
  const org = await createOrganization({ store, actor: { user } }, { name: parsed.organization });
  return { user, orgSlug: org.slug };
}
