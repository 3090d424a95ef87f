// A release's status, as Sentry keeps it: "open", or "archived" (sentry-cli `releases archive`; `restore` opens it
// again). Existing releases are open.
import type { Kysely } from "kysely";

export function releaseStatus() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable("releases")
        .addColumn("status", "text", (c) => c.notNull().defaultTo("open"))
        .execute();
    },
  };
}
