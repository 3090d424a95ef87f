import type { User, UserStore } from "../ports";
import { type Ctx, dbBool, toBool } from "./shared";

const toUser = (r: { id: string; email: string; name: string; is_superuser: boolean | number; created_at: Date | string }): User => ({
  id: r.id,
  email: r.email,
  name: r.name,
  isSuperuser: toBool(r.is_superuser),
  createdAt: new Date(r.created_at).toISOString(),
});

export function userStore({ db, dialect }: Ctx): UserStore {
  const columns = ["id", "email", "name", "is_superuser", "created_at"] as const;
  return {
    async countUsers() {
      const row = await db.selectFrom("users").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async getUserById(id) {
      const r = await db.selectFrom("users").select(columns).where("id", "=", id).executeTakeFirst();
      return r ? toUser(r) : null;
    },
    async getUserByEmail(email) {
      const r = await db.selectFrom("users").select(columns).where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
      return r ? toUser(r) : null;
    },
    async setSuperuser(userId, isSuperuser) {
      await db.updateTable("users").set({ is_superuser: dbBool(dialect, isSuperuser) }).where("id", "=", userId).execute();
    },
  };
}

export { toUser };
