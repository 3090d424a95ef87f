// Attachments (storage/attachment-ports.ts) for SQLite and PostgreSQL: the rows, retention's deletes, and the blob
// store of PostgreSQL (attachment_chunks: ATTACHMENT_LIMITS.chunkBytes per row, so every node reads what any wrote;
// each chunk dated by `created_at`, migration 0037, for retention's sweep of blobs no row names).
import fs from "node:fs/promises";
import { ATTACHMENT_LIMITS } from "../../config/limits";
import type { AttachmentBlobs, AttachmentStore, AttachmentTx, AttachmentType, NewAttachment, StoredAttachment } from "../attachment-ports";
import type { EventAttachmentsTable } from "../attachment-schema";
import type { Ctx } from "./shared";

type Row = Omit<EventAttachmentsTable, "id"> & { id: number };

const toAttachment = (r: Row): StoredAttachment => ({
  id: r.id,
  projectId: r.project_id,
  eventId: r.event_id,
  blobKey: r.blob_key,
  name: r.name,
  contentType: r.content_type,
  attachmentType: r.attachment_type as AttachmentType,
  size: Number(r.size),
  storedSize: Number(r.stored_size),
  codec: "gzip",
  sha1: r.sha1,
  receivedAt: r.received_at,
});

const toRow = (a: NewAttachment) => ({
  project_id: a.projectId,
  event_id: a.eventId,
  blob_key: a.blobKey,
  name: a.name,
  content_type: a.contentType,
  attachment_type: a.attachmentType,
  size: a.size,
  stored_size: a.storedSize,
  codec: a.codec,
  sha1: a.sha1,
  received_at: a.receivedAt,
});

export function attachmentTx({ db }: Ctx): AttachmentTx {
  return {
    async insertAttachments(rows) {
      for (let i = 0; i < rows.length; i += 100) {
        await db
          .insertInto("event_attachments")
          .values(rows.slice(i, i + 100).map(toRow))
          .onConflict((oc) => oc.column("blob_key").doNothing())
          .execute();
      }
    },
  };
}

/** PostgreSQL's blob store: chunks in attachment_chunks. */
export function chunkBlobs({ db }: Ctx): AttachmentBlobs {
  const write = async (key: string, data: Uint8Array) => {
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("attachment_chunks").where("blob_key", "=", key).execute();
      const step = ATTACHMENT_LIMITS.chunkBytes;
      // A few chunks per statement: a 100 MiB blob is 1,600 chunks, each statement a few hundred KiB.
      for (let at = 0, seq = 0; at < data.byteLength || seq === 0; ) {
        const rows = [];
        for (let n = 0; n < 8 && (at < data.byteLength || seq === 0); n++, seq++, at += step)
          rows.push({ blob_key: key, seq, data: data.subarray(at, at + step) });
        await trx.insertInto("attachment_chunks").values(rows).execute();
      }
    });
  };
  return {
    write,
    async adopt(key, file) {
      await write(key, await fs.readFile(file));
      return false;
    },
    async has(key) {
      return (await db.selectFrom("attachment_chunks").select("seq").where("blob_key", "=", key).limit(1).executeTakeFirst()) !== undefined;
    },
    async read(key) {
      const rows = await db.selectFrom("attachment_chunks").select(["seq", "data"]).where("blob_key", "=", key).orderBy("seq").execute();
      if (rows.length === 0) return null;
      return Buffer.concat(rows.map((r) => Buffer.from(r.data)));
    },
    async stream(key) {
      const page = (from: number) =>
        db
          .selectFrom("attachment_chunks")
          .select(["seq", "data"])
          .where("blob_key", "=", key)
          .where("seq", ">=", from)
          .orderBy("seq")
          .limit(ATTACHMENT_LIMITS.streamPageChunks)
          .execute();
      const first = await page(0);
      if (first.length === 0) return null;
      return (async function* () {
        for (let rows = first; ; rows = await page(rows[rows.length - 1]!.seq + 1)) {
          for (const r of rows) yield r.data;
          if (rows.length < ATTACHMENT_LIMITS.streamPageChunks) return;
        }
      })();
    },
    async remove(keys) {
      for (let i = 0; i < keys.length; i += 500)
        await db
          .deleteFrom("attachment_chunks")
          .where("blob_key", "in", keys.slice(i, i + 500))
          .execute();
    },
    async listBlobs(after, limit) {
      // Distinct keys after the cursor along the primary key's index; a blob's time is its newest chunk's.
      const rows = await db
        .selectFrom("attachment_chunks")
        .select(["blob_key", (eb) => eb.fn.max("created_at").as("written_at")])
        .where("blob_key", ">", after)
        .groupBy("blob_key")
        .orderBy("blob_key")
        .limit(limit)
        .execute();
      const blobs = rows.map((r) => ({ key: r.blob_key, partial: false, writtenAt: new Date(r.written_at).getTime() }));
      return { blobs, next: rows.length < limit ? null : rows[rows.length - 1]!.blob_key };
    },
    async sweepBlobs(list, before) {
      if (list.length === 0) return 0;
      // One statement that checks again: a blob written again since it was listed (a chunk at or after `before`), or
      // named by a row meanwhile, stays whole. It counts the blobs, not their chunks (1,600 for 100 MiB).
      const keys = list.map((b) => b.key);
      const r = await db
        .with("gone", (w) =>
          w
            .deleteFrom("attachment_chunks")
            .where("attachment_chunks.blob_key", "in", keys)
            .where(({ not, exists, selectFrom, or }) =>
              not(
                or([
                  exists(
                    selectFrom("attachment_chunks as n")
                      .select("n.seq")
                      .whereRef("n.blob_key", "=", "attachment_chunks.blob_key")
                      .where("n.created_at", ">=", new Date(before)),
                  ),
                  exists(selectFrom("event_attachments as a").select("a.id").whereRef("a.blob_key", "=", "attachment_chunks.blob_key")),
                ]),
              ),
            )
            .returning("attachment_chunks.blob_key"),
        )
        .selectFrom("gone")
        .select((eb) => eb.fn.count<string>("blob_key").distinct().as("n"))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}

export function attachmentStore(ctx: Ctx, blobs: AttachmentBlobs): AttachmentStore {
  const { db } = ctx;
  /** Deletes the rows of these ids, then their blobs. */
  async function deleteRows(rows: { id: number; blob_key: string }[]): Promise<number> {
    if (rows.length === 0) return 0;
    const r = await db
      .deleteFrom("event_attachments")
      .where(
        "id",
        "in",
        rows.map((x) => x.id),
      )
      .executeTakeFirst();
    await blobs.remove(rows.map((x) => x.blob_key));
    return Number(r.numDeletedRows);
  }

  return {
    async namedBlobKeys(keys) {
      if (keys.length === 0) return new Set();
      const rows = await db.selectFrom("event_attachments").select("blob_key").where("blob_key", "in", keys).execute();
      return new Set(rows.map((r) => r.blob_key));
    },
    async listAttachments(projectId, eventId) {
      const rows = await db
        .selectFrom("event_attachments")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("event_id", "=", eventId)
        .orderBy("id")
        .limit(ATTACHMENT_LIMITS.maxListed)
        .execute();
      return rows.map(toAttachment);
    },
    async getAttachment(projectId, eventId, id) {
      const r = await db
        .selectFrom("event_attachments")
        .selectAll()
        .where("project_id", "=", projectId)
        .where("event_id", "=", eventId)
        .where("id", "=", id)
        .executeTakeFirst();
      return r ? toAttachment(r) : null;
    },
    readAttachmentBlob: (key) => blobs.read(key),
    streamAttachmentBlob: (key) => blobs.stream(key),
    async pruneAttachmentsBefore(cutoff, limit) {
      const rows = await db.selectFrom("event_attachments").select(["id", "blob_key", "received_at"]).orderBy("id").limit(limit).execute();
      return deleteRows(rows.filter((r) => r.received_at < cutoff));
    },
    async pruneOrphanAttachments(afterId, scan, orphanedBefore) {
      const rows = await db
        .selectFrom("event_attachments as a")
        .select(["a.id", "a.blob_key", "a.received_at"])
        .select((eb) =>
          eb
            .exists(eb.selectFrom("events as e").select("e.id").whereRef("e.project_id", "=", "a.project_id").whereRef("e.event_id", "=", "a.event_id"))
            .as("stored"),
        )
        .where("a.id", ">", afterId)
        .orderBy("a.id")
        .limit(scan)
        .execute();
      const lastId = rows.length > 0 ? rows[rows.length - 1]!.id : afterId;
      const orphans = rows.filter((r) => !r.stored && r.received_at < orphanedBefore);
      return { deleted: await deleteRows(orphans), lastId };
    },
  };
}

/** In a transaction that deletes events (erasure): their attachments' rows; returns the blob keys to remove after it. */
export async function deleteAttachmentsOfEvents(trx: Ctx["db"], projectId: number, eventIds: string[]): Promise<string[]> {
  if (eventIds.length === 0) return [];
  const rows = await trx.deleteFrom("event_attachments").where("project_id", "=", projectId).where("event_id", "in", eventIds).returning("blob_key").execute();
  return rows.map((r) => r.blob_key);
}

/**
 * Deleting a project or an organization deletes its attachment rows by the foreign key's cascade; these wrap the
 * deletes so that the blobs go too (read first, removed once the rows are gone).
 */
export function removingBlobs(
  ctx: Ctx,
  blobs: AttachmentBlobs,
  deletes: { deleteProject: (id: number) => Promise<boolean>; deleteOrganization: (id: number) => Promise<boolean> },
) {
  const keysOf = async (projectIds: number[]) =>
    projectIds.length === 0
      ? []
      : (await ctx.db.selectFrom("event_attachments").select("blob_key").where("project_id", "in", projectIds).execute()).map((r) => r.blob_key);
  return {
    async deleteProject(id: number) {
      const keys = await keysOf([id]);
      const deleted = await deletes.deleteProject(id);
      if (deleted) await blobs.remove(keys);
      return deleted;
    },
    async deleteOrganization(id: number) {
      const projects = await ctx.db.selectFrom("projects").select("id").where("organization_id", "=", id).execute();
      const keys = await keysOf(projects.map((p) => p.id));
      const deleted = await deletes.deleteOrganization(id);
      if (deleted) await blobs.remove(keys);
      return deleted;
    },
  };
}
