// Writing to the notification outbox (storage/notification-ports.ts NotificationOutbox) inside the caller's
// transaction: a decision already written (its idempotency key present) is skipped, not repeated.
import type { Kysely } from "kysely";
import type { NewNotification, NotificationOutbox } from "../notification-ports";
import type { Database } from "../schema";

/** Rows per INSERT, well under both dialects' bound-parameter limits (11 columns each). */
const ROWS_PER_STATEMENT = 100;

export function notificationOutbox(db: Kysely<Database>): NotificationOutbox {
  return {
    async enqueueNotifications(rows: NewNotification[]): Promise<number> {
      let added = 0;
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        const part = rows.slice(i, i + ROWS_PER_STATEMENT);
        const inserted = await db
          .insertInto("notifications")
          .values(
            part.map((n) => ({
              organization_id: n.organizationId,
              project_id: n.projectId,
              source: n.source,
              rule_id: n.ruleId,
              issue_id: n.issueId,
              action: JSON.stringify(n.action),
              payload: JSON.stringify(n.payload),
              idempotency_key: n.idempotencyKey,
              status: "pending",
              next_attempt_at: n.createdAt,
              created_at: n.createdAt,
            })),
          )
          .onConflict((oc) => oc.column("idempotency_key").doNothing())
          .returning("id")
          .execute();
        added += inserted.length;
      }
      return added;
    },
  };
}
