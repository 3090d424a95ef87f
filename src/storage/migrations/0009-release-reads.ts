// The release pages' reads: a release's events (per project, optionally per environment) and the issues first seen
// in a release, each from an index instead of a scan of the project's events or issues.
import type { Kysely } from "kysely";

export function releaseReads() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.createIndex("events_project_release_idx").on("events").columns(["project_id", "release", "environment"]).execute();
      await db.schema.createIndex("issues_project_first_release_idx").on("issues").columns(["project_id", "first_release"]).execute();
    },
  };
}
