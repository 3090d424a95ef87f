// The notification outbox's tables (migration 0020), as Kysely sees them.
import type { Generated } from "kysely";

export type NotificationsTable = {
  id: Generated<number>;
  organization_id: number;
  project_id: number | null;
  source: string;
  rule_id: number | null;
  issue_id: number | null;
  /** JSON: one NotificationAction. */
  action: string;
  /** JSON: NotificationPayload. */
  payload: string;
  idempotency_key: string;
  status: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_by: string | null;
  claimed_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
};

export type NotificationAttemptsTable = {
  id: Generated<number>;
  notification_id: number;
  attempted_at: string;
  duration_ms: number;
  target: string;
  status_code: number | null;
  /** 0/1 on SQLite. */
  ok: boolean | number;
  error: string | null;
  response_excerpt: string | null;
};

export type NotificationTables = { notifications: NotificationsTable; notification_attempts: NotificationAttemptsTable };
