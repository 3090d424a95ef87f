// The tables of a person's data (migration 0024), as Kysely sees them.
import type { ColumnType } from "kysely";
/** received_at: the event's arrival, on PostgreSQL only, where it is the day partition's key (migration 0029). */
export type EventUsersTable = {
  project_id: number;
  event_id: string;
  issue_id: number | null;
  field: string;
  value: string;
  received_at: ColumnType<string, string | undefined, never>;
};
// Erasures were recorded in personal_data_erasures until migration 0033 moved them into the audit trail.
export type UserDataTables = { event_users: EventUsersTable };
