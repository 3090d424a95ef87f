// Accounts over better-auth: users are created through better-auth's own adapter and password hasher (scrypt).
import type { Accounts } from "../core/accounts";
import type { Store } from "../storage/ports";
import type { Auth } from "./create-auth";

export function betterAuthAccounts(auth: Auth, store: Store): Accounts {
  return {
    async createUser({ email, password, name, isSuperuser }) {
      const ctx = await auth.$context;
      const hash = await ctx.password.hash(password);
      const user = await ctx.internalAdapter.createUser({ email: email.toLowerCase(), name, emailVerified: false }, { method: "admin" });
      await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash });
      if (isSuperuser) await store.setSuperuser(user.id, true);
      const created = await store.getUserById(user.id);
      if (!created) throw new Error("user vanished after creation");
      return created;
    },
  };
}
