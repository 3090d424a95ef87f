import type { User, UserStore } from "../ports";
import { type Ctx, dbBool, decodeCursor, toBool, toPage } from "./shared";

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
      const row = await db
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
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
    async listUsers(page) {
      const after = decodeCursor(page.cursor);
      let q = db
        .selectFrom("users")
        .select(columns)
        .orderBy("email")
        .limit(page.limit + 1);
      if (after !== null) q = q.where("email", ">", after);
      return toPage((await q.execute()).map(toUser), page, (u) => u.email);
    },
    async setSuperuser(userId, isSuperuser) {
      await db
        .updateTable("users")
        .set({ is_superuser: dbBool(dialect, isSuperuser) })
        .where("id", "=", userId)
        .execute();
    },
  };
}

export { toUser };
