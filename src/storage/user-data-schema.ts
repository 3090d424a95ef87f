// The tables of a person's data (migrations 0024 and 0039), as Kysely sees them.
import type { ColumnType } from "kysely";
/**
 * One row per stored event whose user object had a searchable part (migration 0039): event_row_id is events.id.
 * user_key is the key the event's issue counted, only when it is not the first part present with its prefix
 * (storage/user-data-ports.ts derivedUserKey). received_at: the event's arrival, on PostgreSQL only, where it is the
 * day partition's key (migration 0029).
 */
export type EventUsersTable = {
  event_row_id: number;
  project_id: number;
  issue_id: number | null;
  user_id: string | null;
  email: string | null;
  username: string | null;
  ip: string | null;
  user_key: string | null;
  received_at: ColumnType<string, string | undefined, never>;
};
// Erasures were recorded in personal_data_erasures until migration 0033 moved them into the audit trail.
export type UserDataTables = { event_users: EventUsersTable };
