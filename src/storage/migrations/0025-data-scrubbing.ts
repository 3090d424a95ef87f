// Data scrubbing settings (issue 18): per organization and per project, Sentry's options as one JSON text each
// (dataScrubber, dataScrubberDefaults, sensitiveFields, safeFields, scrubIPAddresses, relayPiiConfig), read by the
// digest for every batch and by the settings screens and the organizations and projects API. Null: the defaults (a
// project scrubs Sentry's defaults; an organization requires nothing more of its projects).
import type { Kysely } from "kysely";

export function dataScrubbing() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable("organizations").addColumn("data_scrubbing", "text").execute();
      await db.schema.alterTable("projects").addColumn("data_scrubbing", "text").execute();
    },
  };
}
