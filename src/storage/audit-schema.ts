// The audit trail's table (migration 0033), as Kysely sees it.
import type { Generated } from "kysely";

export type AuditLogTable = {
  id: Generated<number>;
  organization_id: number | null;
  event: string;
  actor_user_id: string | null;
  actor_label: string;
  ip_address: string | null;
  target_object: string | null;
  target_user_id: string | null;
  note: string;
  data: string;
  created_at: string;
};

export type AuditTables = { audit_log: AuditLogTable };
