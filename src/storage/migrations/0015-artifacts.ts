// Source files uploaded by sentry-cli. Chunks (`upload_chunks`, by SHA-1 per organization) wait for an assemble call;
// an artifact bundle is stored once per organization and SHA-1 (`artifact_bundles.checksum`; null for a legacy
// release file, which is a bundle of one file), linked to projects, releases and dists (`artifact_bundle_links`), and
// its files (`artifact_files`, deflated) are found by debug id or by URL within a release.
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export function artifacts(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable("upload_chunks")
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("checksum", "text", (c) => c.notNull())
        .addColumn("data", t.blob, (c) => c.notNull())
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("upload_chunks_pk", ["organization_id", "checksum"])
        .execute();
      await db.schema.createIndex("upload_chunks_created_idx").on("upload_chunks").column("created_at").execute();

      await db.schema
        .createTable("artifact_bundles")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("organization_id", "integer", (c) => c.notNull().references("organizations.id").onDelete("cascade"))
        .addColumn("checksum", "text")
        .addColumn("bundle_id", "text")
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("file_count", "integer", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("last_used_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("artifact_bundles_checksum_idx").on("artifact_bundles").columns(["organization_id", "checksum"]).unique().execute();
      await db.schema.createIndex("artifact_bundles_used_idx").on("artifact_bundles").columns(["last_used_at", "id"]).execute();

      await db.schema
        .createTable("artifact_bundle_links")
        .addColumn("bundle_id", "integer", (c) => c.notNull().references("artifact_bundles.id").onDelete("cascade"))
        .addColumn("project_id", "integer", (c) => c.notNull().references("projects.id").onDelete("cascade"))
        .addColumn("release", "text", (c) => c.notNull())
        .addColumn("dist", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("artifact_bundle_links_pk", ["bundle_id", "project_id", "release", "dist"])
        .execute();
      await db.schema.createIndex("artifact_bundle_links_release_idx").on("artifact_bundle_links").columns(["project_id", "release", "dist"]).execute();

      await db.schema
        .createTable("artifact_files")
        .addColumn("id", t.serial, (c) => t.serialPk(c))
        .addColumn("bundle_id", "integer", (c) => c.notNull().references("artifact_bundles.id").onDelete("cascade"))
        .addColumn("path", "text", (c) => c.notNull())
        .addColumn("url", "text", (c) => c.notNull())
        .addColumn("type", "text")
        .addColumn("debug_id", "text")
        .addColumn("headers", "text", (c) => c.notNull())
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("sha1", "text", (c) => c.notNull())
        .addColumn("data", t.blob, (c) => c.notNull())
        .execute();
      await db.schema.createIndex("artifact_files_url_idx").on("artifact_files").columns(["bundle_id", "url"]).execute();
      await db.schema.createIndex("artifact_files_debug_id_idx").on("artifact_files").columns(["debug_id", "type"]).execute();
    },
  };
}
