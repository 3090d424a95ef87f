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

export async function testCore(options: OpenDbOptions = { dialect: "sqlite", file: ":memory:" }): Promise<TestCore> {
  const db = openDb(options);
  await migrateToLatest(db);
  const store = createStore(db);
  const auth = createAuth({ db, secret: "test-secret-test-secret-test-secret-00", publicUrl: "http://localhost:9000", basePath: "" });
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
