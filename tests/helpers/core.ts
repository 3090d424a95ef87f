// A real Faultline core over a real database (SQLite in memory by default), for tests of the core and storage.
import { betterAuthAccounts } from "../../src/auth/accounts";
import { createAuth } from "../../src/auth/create-auth";
import type { Accounts } from "../../src/core/accounts";
import type { CoreContext } from "../../src/core/context";
import { isAppError } from "../../src/core/errors";
import { acceptInvitation, createInvitation } from "../../src/core/invitations";
import type { Role } from "../../src/core/roles";
import { type Db, openDb, type OpenDbOptions } from "../../src/storage/db";
import { createStore } from "../../src/storage/kysely";
import { migrateToLatest } from "../../src/storage/migrate";
import type { Member, Store, User } from "../../src/storage/ports";

export type TestCore = { db: Db; store: Store; accounts: Accounts; as: (user: User) => CoreContext; close: () => Promise<void> };

/** Each distinct password's hash, made once per test process. */
const hashes = new Map<string, Promise<string>>();

/**
 * better-auth's password hash is salted scrypt, tens of milliseconds of CPU each, and the tests make thousands of
 * accounts with a handful of passwords (the permission matrix alone over a thousand): this test core hashes each
 * distinct password once per process and gives every account of that password the same hash. It is better-auth's
 * own hash of the real password, so signing in verifies it as ever; only the salt is shared between test accounts.
 */
async function hashEachPasswordOnce(auth: ReturnType<typeof createAuth>): Promise<void> {
  const password = (await auth.$context).password;
  const hash = password.hash.bind(password);
  password.hash = (plain: string) => {
    let made = hashes.get(plain);
    if (!made) hashes.set(plain, (made = hash(plain)));
    return made;
  };
}

export async function testCore(options: OpenDbOptions = { dialect: "sqlite", file: ":memory:" }): Promise<TestCore> {
  const db = openDb(options);
  await migrateToLatest(db);
  const store = createStore(db);
  const auth = createAuth({ db, secret: "test-secret-test-secret-test-secret-00", publicUrl: "http://localhost:9000", basePath: "" });
  await hashEachPasswordOnce(auth);
  const accounts = betterAuthAccounts(auth, store);
  return { db, store, accounts, as: (user) => ({ store, actor: { user } }), close: () => db.close() };
}

let counter = 0;
export const uniq = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

/** "ok", or the code of the AppError a call fails with (anything else fails the test). */
export async function outcome(run: () => Promise<unknown>): Promise<"ok" | string> {
  try {
    await run();
    return "ok";
  } catch (err) {
    if (isAppError(err)) return err.code;
    throw err;
  }
}

/**
 * Brings the account with `email` into the organization as people join one: `inviter` invites the address, and that
 * account accepts the invitation (both through the core, with every check they make).
 */
export async function joinByInvitation(t: TestCore, inviter: CoreContext, orgSlug: string, { email, role }: { email: string; role: Role }): Promise<Member> {
  const { secret } = await createInvitation(inviter, orgSlug, { email, role });
  const user = await t.store.getUserByEmail(email);
  if (!user) throw new Error(`no account with ${email}`);
  await acceptInvitation(t.as(user), secret);
  const org = await t.store.getOrganizationBySlug(orgSlug);
  const member = org ? await t.store.getMembership(org.id, user.id) : null;
  if (!member) throw new Error(`${email} did not join ${orgSlug}`);
  return member;
}
