// Uploaded source files (storage/upload-ports.ts and artifact-ports.ts) on SQLite and PostgreSQL: chunks until
// assembly, bundles stored once per organization and SHA-1, their files deflated and found by debug id or release URL.
import { inflateRawSync } from "node:zlib";
import type { ArtifactFile, ArtifactFileType, ArtifactReads } from "../artifact-ports";
import type { RetentionStore } from "../retention-ports";
import type { ArtifactListing, UploadStore } from "../upload-ports";
import { type Ctx, uniquely } from "./shared";

/** A bundle's use is recorded at most once a day: reads while symbolicating must not all turn into writes. */
const USE_RECORD_INTERVAL_MS = 86_400_000;
/** rows per multi-row insert: 10 columns each stays far below PostgreSQL's 65,535 parameters. */
const INSERT_ROWS = 500;

type FileRow = { url: string; type: string | null; headers: string; data: Uint8Array; bundle_id: number; last_used_at: string };

export function artifactStore({ db }: Ctx): ArtifactReads & UploadStore & Pick<RetentionStore, "pruneArtifactsBefore"> {
  const fileColumns = ["f.url", "f.type", "f.headers", "f.data", "f.bundle_id", "b.last_used_at"] as const;
  const files = () =>
    db
      .selectFrom("artifact_files as f")
      .innerJoin("artifact_bundles as b", "b.id", "f.bundle_id")
      .innerJoin("artifact_bundle_links as l", "l.bundle_id", "f.bundle_id");

  async function found(row: FileRow | undefined): Promise<ArtifactFile | null> {
    if (!row) return null;
    const now = new Date();
    if (now.getTime() - Date.parse(row.last_used_at) > USE_RECORD_INTERVAL_MS) {
      await db.updateTable("artifact_bundles").set({ last_used_at: now.toISOString() }).where("id", "=", row.bundle_id).execute();
    }
    return {
      url: row.url,
      type: row.type as ArtifactFileType | null,
      headers: JSON.parse(row.headers) as Record<string, string>,
      bytes: new Uint8Array(inflateRawSync(row.data)),
    };
  }

  async function byChecksum(organizationId: number, checksum: string): Promise<number | null> {
    const row = await db
      .selectFrom("artifact_bundles")
      .select("id")
      .where("organization_id", "=", organizationId)
      .where("checksum", "=", checksum)
      .executeTakeFirst();
    return row?.id ?? null;
  }

  async function link(bundleRowId: number, links: { projectId: number; release: string; dist: string }[], now: string): Promise<void> {
    for (const l of links) {
      await db
        .insertInto("artifact_bundle_links")
        .values({ bundle_id: bundleRowId, project_id: l.projectId, release: l.release, dist: l.dist })
        .onConflict((oc) => oc.columns(["bundle_id", "project_id", "release", "dist"]).doNothing())
        .execute();
    }
    await db.updateTable("artifact_bundles").set({ last_used_at: now }).where("id", "=", bundleRowId).execute();
  }

  return {
    async fileByDebugId(projectId, debugId, type) {
      const row = await files()
        .select(fileColumns)
        .where("l.project_id", "=", projectId)
        .where("f.debug_id", "=", debugId.toLowerCase())
        .where("f.type", "=", type)
        .orderBy("f.bundle_id", "desc")
        .limit(1)
        .executeTakeFirst();
      return found(row);
    },
    async fileByUrl(projectId, release, dist, url) {
      const row = await files()
        .select(fileColumns)
        .where("l.project_id", "=", projectId)
        .where("l.release", "=", release)
        .where("l.dist", "=", dist ?? "")
        .where("f.url", "=", url)
        .orderBy("f.bundle_id", "desc")
        .limit(1)
        .executeTakeFirst();
      return found(row);
    },
    async releaseHasFiles(projectId, release, dist) {
      const row = await db
        .selectFrom("artifact_bundle_links")
        .select("bundle_id")
        .where("project_id", "=", projectId)
        .where("release", "=", release)
        .where("dist", "=", dist ?? "")
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async putChunks(organizationId, chunks, now) {
      for (const c of chunks) {
        await db
          .insertInto("upload_chunks")
          .values({ organization_id: organizationId, checksum: c.checksum, data: c.data, size: c.data.byteLength, created_at: now })
          .onConflict((oc) => oc.columns(["organization_id", "checksum"]).doNothing())
          .execute();
      }
    },
    async presentChunks(organizationId, checksums) {
      if (checksums.length === 0) return new Set();
      const rows = await db
        .selectFrom("upload_chunks")
        .select("checksum")
        .where("organization_id", "=", organizationId)
        .where("checksum", "in", checksums)
        .execute();
      return new Set(rows.map((r) => r.checksum));
    },
    async pendingChunkBytes(organizationId) {
      const row = await db
        .selectFrom("upload_chunks")
        .select((eb) => eb.fn.sum<number | string>("size").as("bytes"))
        .where("organization_id", "=", organizationId)
        .executeTakeFirst();
      return Number(row?.bytes ?? 0);
    },
    async readChunks(organizationId, checksums) {
      const out = new Map<string, Uint8Array>();
      // One at a time: a bundle's chunks together can be large, and each is copied once into the bundle anyway.
      for (const checksum of new Set(checksums)) {
        const row = await db
          .selectFrom("upload_chunks")
          .select("data")
          .where("organization_id", "=", organizationId)
          .where("checksum", "=", checksum)
          .executeTakeFirst();
        if (row) out.set(checksum, row.data);
      }
      return out;
    },
    async deleteChunks(organizationId, checksums) {
      if (checksums.length === 0) return;
      await db
        .deleteFrom("upload_chunks")
        .where("organization_id", "=", organizationId)
        .where("checksum", "in", [...new Set(checksums)])
        .execute();
    },
    bundleByChecksum: byChecksum,
    async createBundle(b) {
      try {
        return await uniquely("Artifact bundle", () =>
          db.transaction().execute(async (tx) => {
            const { id } = await tx
              .insertInto("artifact_bundles")
              .values({
                organization_id: b.organizationId,
                checksum: b.checksum,
                bundle_id: b.bundleId,
                size: b.size,
                file_count: b.files.length,
                created_at: b.now,
                last_used_at: b.now,
              })
              .returning("id")
              .executeTakeFirstOrThrow();
            for (let i = 0; i < b.files.length; i += INSERT_ROWS) {
              const rows = b.files.slice(i, i + INSERT_ROWS).map((f) => ({
                bundle_id: id,
                path: f.path,
                url: f.url,
                type: f.type,
                debug_id: f.debugId?.toLowerCase() ?? null,
                headers: JSON.stringify(f.headers),
                size: f.size,
                sha1: f.sha1,
                data: f.data,
              }));
              await tx.insertInto("artifact_files").values(rows).execute();
            }
            for (const l of b.links)
              await tx
                .insertInto("artifact_bundle_links")
                .values({ bundle_id: id, project_id: l.projectId, release: l.release, dist: l.dist })
                .onConflict((oc) => oc.doNothing())
                .execute();
            return id;
          }),
        );
      } catch (err) {
        const existing = b.checksum === null ? null : await byChecksum(b.organizationId, b.checksum);
        if (existing === null) throw err;
        await link(existing, b.links, b.now);
        return existing;
      }
    },
    linkBundle: link,
    async releaseFileExists(l, url) {
      const row = await files()
        .select("f.id")
        .where("l.project_id", "=", l.projectId)
        .where("l.release", "=", l.release)
        .where("l.dist", "=", l.dist)
        .where("f.url", "=", url)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async listReleaseFiles(projectIds, release, limit) {
      if (projectIds.length === 0) return [];
      const rows = await files()
        .select([
          "f.id",
          "f.bundle_id",
          "b.checksum",
          "b.bundle_id as bundle_uuid",
          "f.path",
          "f.url",
          "f.type",
          "f.debug_id",
          "f.headers",
          "f.size",
          "f.sha1",
          "l.dist",
          "b.created_at",
        ])
        .distinct()
        .where("l.project_id", "in", projectIds)
        .where("l.release", "=", release)
        .orderBy("f.url")
        .orderBy("f.id")
        .orderBy("l.dist")
        .limit(limit)
        .execute();
      return rows.map(
        (r): ArtifactListing => ({
          fileId: r.id,
          bundleRowId: r.bundle_id,
          checksum: r.checksum,
          bundleId: r.bundle_uuid,
          path: r.path,
          url: r.url,
          type: r.type as ArtifactFileType | null,
          debugId: r.debug_id,
          headers: JSON.parse(r.headers) as Record<string, string>,
          size: r.size,
          sha1: r.sha1,
          dist: r.dist === "" ? null : r.dist,
          createdAt: r.created_at,
        }),
      );
    },
    async deleteReleaseFile(projectIds, release, fileId) {
      if (projectIds.length === 0) return false;
      const row = await files()
        .select("b.id")
        .where("f.id", "=", fileId)
        .where("b.checksum", "is", null)
        .where("l.project_id", "in", projectIds)
        .where("l.release", "=", release)
        .limit(1)
        .executeTakeFirst();
      if (!row) return false;
      await db.deleteFrom("artifact_bundles").where("id", "=", row.id).execute();
      return true;
    },

    async pruneArtifactsBefore(bundleCutoff, chunkCutoff, limit) {
      const bundles = await db
        .selectFrom("artifact_bundles")
        .select("id")
        .where("last_used_at", "<", bundleCutoff)
        .orderBy("last_used_at")
        .limit(limit)
        .execute();
      if (bundles.length > 0)
        await db
          .deleteFrom("artifact_bundles")
          .where(
            "id",
            "in",
            bundles.map((b) => b.id),
          )
          .execute();
      const chunks = await db
        .selectFrom("upload_chunks")
        .select(["organization_id", "checksum"])
        .where("created_at", "<", chunkCutoff)
        .orderBy("created_at")
        .limit(limit - bundles.length)
        .execute();
      for (const c of chunks)
        await db.deleteFrom("upload_chunks").where("organization_id", "=", c.organization_id).where("checksum", "=", c.checksum).execute();
      return bundles.length + chunks.length;
    },
  };
}
