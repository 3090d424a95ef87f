// The tables several nodes share beyond the rest (migration 0026), as Kysely sees them.
export type QuotaCountsTable = { name: string; window_start: number | string; expires_at: number | string; count: number | string };
export type JobClaimsTable = { name: string; claimed_until: string; claimed_by: string };

export type ClusterTables = { quota_counts: QuotaCountsTable; job_claims: JobClaimsTable };
