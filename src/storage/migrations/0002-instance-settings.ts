// Install-level settings (one row per key). The first user is created after claiming the "setup" key, so two
// simultaneous first-run setups cannot both succeed.
import type { Kysely } from "kysely";

export function instanceSettings() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("instance_settings")
        .addColumn("key", "text", (c) => c.primaryKey())
        .addColumn("value", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
    },
  };
}
