import type { TwoFactorStore } from "../two-factor-ports";
import { type Ctx, dbBool, toBool } from "./shared";

export function twoFactorStore({ db, dialect }: Ctx): TwoFactorStore {
  return {
    async userHasTwoFactor(userId) {
      const r = await db.selectFrom("users").select("two_factor_enabled").where("id", "=", userId).executeTakeFirst();
      return r ? toBool(r.two_factor_enabled) : false;
    },
    async getRequireTwoFactor(organizationId) {
      const r = await db.selectFrom("organizations").select("require_two_factor").where("id", "=", organizationId).executeTakeFirst();
      return r ? toBool(r.require_two_factor) : false;
    },
    async setRequireTwoFactor(organizationId, on) {
      await db
        .updateTable("organizations")
        .set({ require_two_factor: dbBool(dialect, on) })
        .where("id", "=", organizationId)
        .execute();
    },
    async claimTotpCode(userId, code, expiresAt, now) {
      await db.deleteFrom("two_factor_used_codes").where("user_id", "=", userId).where("expires_at", "<=", now).execute();
      const inserted = await db
        .insertInto("two_factor_used_codes")
        .values({ user_id: userId, code, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(["user_id", "code"]).doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}
