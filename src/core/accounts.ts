// The account operations the core needs from the auth layer (implemented over better-auth in src/auth).
import { z } from "zod";
import type { Store, User } from "../storage/ports";
import { AppError } from "./errors";
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

/** Creates a user from validated input (CLI `createuser`, first-run setup). */
export async function registerUser(accounts: Accounts, store: Store, input: unknown): Promise<User> {
  const { email, password, name, isSuperuser } = parseInput(newUserSchema, input);
  if (await store.getUserByEmail(email)) throw new AppError("conflict", `A user with e-mail ${email} already exists`, { email: ["Already taken"] });
  return accounts.createUser({ email, password, name: name ?? email.split("@")[0] ?? email, isSuperuser });
}

/**
 * First run: when no user exists, the setup page creates the owner, a superuser, with a first organization.
 * Refuses once any user exists, so the setup page cannot be replayed to take over an install.
 */
export async function setupFirstUser(
  accounts: Accounts,
  store: Store,
  input: unknown,
): Promise<{ user: User; orgSlug: string }> {
  const parsed = parseInput(newUserSchema.extend({ organization: nameSchema }), input);
  const alreadySetUp = () => new AppError("conflict", "Faultline is already set up; sign in instead");
  if ((await store.countUsers()) > 0) throw alreadySetUp();
  // Claimed atomically: of two setups racing, one gets the key and the other is refused.
  if (!(await store.claimSetting("setup", new Date().toISOString()))) throw alreadySetUp();
  let user: User;
  try {
    user = await accounts.createUser({ email: parsed.email, password: parsed.password, name: parsed.name ?? parsed.email.split("@")[0] ?? parsed.email, isSuperuser: true });
  } catch (err) {
    await store.releaseSetting("setup");
    throw err;
  }
  const { createOrganization } = await import("./organizations");
  const org = await createOrganization({ store, actor: { user } }, { name: parsed.organization });
  return { user, orgSlug: org.slug };
}
