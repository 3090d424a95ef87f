// The attachment tables (migration 0030), as Kysely sees them.
import type { Generated } from "kysely";

export type EventAttachmentsTable = {
  id: Generated<number>;
  project_id: number;
  event_id: string;
  blob_key: string;
  name: string;
  content_type: string;
  attachment_type: string;
  size: number | string;
  stored_size: number | string;
  codec: string;
  sha1: string;
  received_at: string;
};

export type AttachmentChunksTable = {
  blob_key: string;
  seq: number;
  data: Uint8Array;
  /** PostgreSQL only (migration 0037): when the chunk was written; SQLite's blobs are files. */
  created_at: Generated<Date>;
};

export type AttachmentTables = { event_attachments: EventAttachmentsTable; attachment_chunks: AttachmentChunksTable };
