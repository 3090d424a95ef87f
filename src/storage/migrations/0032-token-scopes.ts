// Scoped personal tokens (issue 20): each personal API token may carry Sentry's scopes, chosen at creation, and an
// expiry. `scopes` is a JSON array of scope names; null for tokens made before this migration, which keep the full
// access their owner's role gives (shown as "Full access"). `expires_at` is an ISO timestamp, null for no expiry.
import type { Kysely } from "kysely";

export function tokenScopes() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("api_tokens").addColumn("scopes", "text").execute();
      await db.schema.alterTable("api_tokens").addColumn("expires_at", "text").execute();
    },
  };
}
