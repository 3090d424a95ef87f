import type { InstanceStore } from "../ports";
import { type Ctx, nowIso } from "./shared";

export function instanceStore({ db }: Ctx): InstanceStore {
  return {
    async claimSetting(key, value) {
      const r = await db
        .insertInto("instance_settings")
        .values({ key, value, created_at: nowIso() })
        .onConflict((oc) => oc.column("key").doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async getSetting(key) {
      const row = await db.selectFrom("instance_settings").select("value").where("key", "=", key).executeTakeFirst();
      return row?.value ?? null;
    },
    async releaseSetting(key) {
      await db.deleteFrom("instance_settings").where("key", "=", key).execute();
    },
  };
}
