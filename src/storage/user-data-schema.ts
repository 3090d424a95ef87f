// The tables of a person's data (migration 0024), as Kysely sees them.
import type { ColumnType, Generated } from "kysely";
/** received_at: the event's arrival, on PostgreSQL only, where it is the day partition's key (migration 0029). */
export type EventUsersTable = { project_id: number; event_id: string; issue_id: number | null; field: string; value: string; received_at: ColumnType<string, string | undefined, never> };
export type PersonalDataErasuresTable = {
  id: Generated<number>;
  organization_id: number;
  actor_user_id: string;
  field: string;
  value_sha256: string;
  counts: string;
  created_at: string;
};

export type UserDataTables = { event_users: EventUsersTable; personal_data_erasures: PersonalDataErasuresTable };
