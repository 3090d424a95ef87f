// Quotas for every data category, per key and per project (issue 16, "quotas cover only errors"): a JSON object of
// {"<category>": {"count": n, "window": seconds}} beside the error quota's own columns (Sentry's `rateLimit`), named
// by the categories of protocol/categories.ts QUOTA_CATEGORIES. Null: no quota but the error one.
import type { Kysely } from "kysely";

export function quotas() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("projects").addColumn("quotas", "text").execute();
      await db.schema.alterTable("project_keys").addColumn("quotas", "text").execute();
    },
  };
}
