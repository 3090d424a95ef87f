// The tables of a person's data (migration 0024), as Kysely sees them.
export type EventUsersTable = { project_id: number; event_id: string; issue_id: number | null; field: string; value: string };
// Erasures were recorded in personal_data_erasures until migration 0033 moved them into the audit trail.
export type UserDataTables = { event_users: EventUsersTable };
