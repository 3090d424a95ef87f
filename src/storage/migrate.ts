// Forward-only migrations, run at start. Each entry is frozen once released; changes come as new entries.
import { type Migration, type MigrationProvider, Migrator, sql } from "kysely";
import type { Db, Dialect } from "./db";
import { initial } from "./migrations/0001-initial";
import { instanceSettings } from "./migrations/0002-instance-settings";
import { ingest } from "./migrations/0003-ingest";
import { issues } from "./migrations/0004-issues";
import { releases } from "./migrations/0005-releases";
import { eventStorage } from "./migrations/0006-event-storage";
import { issueTriage } from "./migrations/0007-issue-triage";
import { releaseHealthRetention } from "./migrations/0008-release-health-retention";
import { releaseReads } from "./migrations/0009-release-reads";
import { invitations } from "./migrations/0010-invitations";
import { releaseStatus } from "./migrations/0011-release-status";
import { orgAuthTokens } from "./migrations/0012-org-auth-tokens";
import { spans } from "./migrations/0013-spans";
import { internalProject } from "./migrations/0014-internal-project";
import { artifacts } from "./migrations/0015-artifacts";
import { scrapeJavaScript } from "./migrations/0016-scrape-javascript";
import { quotas } from "./migrations/0017-quotas";
import { deadLetters } from "./migrations/0018-dead-letters";
import { invitationEmail } from "./migrations/0019-invitation-email";
import { notifications } from "./migrations/0020-notifications";
import { alertRules } from "./migrations/0021-alert-rules";
import { notificationSettings } from "./migrations/0023-notification-settings";
import { metricAlerts } from "./migrations/0022-metric-alerts";
import { userData } from "./migrations/0024-user-data";
import { dataScrubbing } from "./migrations/0025-data-scrubbing";
import { cluster } from "./migrations/0026-cluster";
import { monitors } from "./migrations/0027-monitors";
import { userFeedback } from "./migrations/0028-user-feedback";
import { dayPartitions } from "./migrations/0029-day-partitions";
import { attachments } from "./migrations/0030-attachments";
import { logs } from "./migrations/0031-logs";
import { tokenScopes } from "./migrations/0032-token-scopes";
import { auditLog } from "./migrations/0033-audit-log";
import { twoFactor } from "./migrations/0034-two-factor";
import { sso } from "./migrations/0035-sso";
import { sessionLastSeen } from "./migrations/0036-session-last-seen";
import { attachmentChunkTimes } from "./migrations/0037-attachment-chunk-times";
import { segmentIndex } from "./migrations/0038-segment-index";
import { eventUsersPerEvent } from "./migrations/0039-event-users-per-event";
import { traceEventsPerEvent } from "./migrations/0040-trace-events-per-event";
import { traceEventsByDay } from "./migrations/0041-trace-events-by-day";
import { snoozeBaseline } from "./migrations/0042-snooze-baseline";

/** Ordered by name; never rename or edit a released entry. */
export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    "0001-initial": initial(dialect),
    "0002-instance-settings": instanceSettings(),
    "0003-ingest": ingest(dialect),
    "0004-issues": issues(dialect),
    "0005-releases": releases(dialect),
    "0006-event-storage": eventStorage(dialect),
    "0007-issue-triage": issueTriage(dialect),
    "0008-release-health-retention": releaseHealthRetention(),
    "0009-release-reads": releaseReads(),
    "0010-invitations": invitations(dialect),
    "0011-release-status": releaseStatus(),
    "0012-org-auth-tokens": orgAuthTokens(dialect),
    "0013-spans": spans(dialect),
    "0014-internal-project": internalProject(dialect),
    "0015-artifacts": artifacts(dialect),
    "0016-scrape-javascript": scrapeJavaScript(dialect),
    "0017-quotas": quotas(),
    "0018-dead-letters": deadLetters(dialect),
    "0019-invitation-email": invitationEmail(),
    "0020-notifications": notifications(dialect),
    "0021-alert-rules": alertRules(dialect),
    "0022-metric-alerts": metricAlerts(dialect),
    "0023-notification-settings": notificationSettings(dialect),
    "0024-user-data": userData(dialect),
    "0025-data-scrubbing": dataScrubbing(),
    "0026-cluster": cluster(),
    "0027-monitors": monitors(dialect),
    "0028-user-feedback": userFeedback(dialect),
    "0029-day-partitions": dayPartitions(dialect),
    "0030-attachments": attachments(dialect),
    "0031-logs": logs(dialect),
    "0032-token-scopes": tokenScopes(),
    "0033-audit-log": auditLog(dialect),
    "0034-two-factor": twoFactor(dialect),
    "0035-sso": sso(dialect),
    "0036-session-last-seen": sessionLastSeen(),
    "0037-attachment-chunk-times": attachmentChunkTimes(dialect),
    "0038-segment-index": segmentIndex(dialect),
    "0039-event-users-per-event": eventUsersPerEvent(dialect),
    "0040-trace-events-per-event": traceEventsPerEvent(dialect),
    "0041-trace-events-by-day": traceEventsByDay(dialect),
    "0042-snooze-baseline": snoozeBaseline(),
  };
}

export class MigrationError extends Error {
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = "MigrationError";
  }
}

/**
 * The database holds migrations this build does not have: a newer Faultline migrated it. Migrations only go forward,
 * so this build must not run on it (its queries would meet a schema it does not know).
 */
export class SchemaNewerError extends MigrationError {
  constructor(readonly unknown: string[]) {
    super(
      `the database was migrated by a newer Faultline: it has migration${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")} that this build does not know. ` +
        "Migrations only go forward: run the newer Faultline (or all nodes at the same version), or restore the backup taken before the upgrade (`faultline restore`).",
    );
    this.name = "SchemaNewerError";
  }
}

export type MigrationStatus = { applied: string[]; pending: string[]; unknown: string[] };

/** Migrations applied to the database, those of this build still to apply, and those applied that this build lacks. */
export async function migrationStatus(db: Db): Promise<MigrationStatus> {
  let applied: string[] = [];
  try {
    const r = await sql<{ name: string }>`select name from faultline_migrations order by name`.execute(db.kysely);
    applied = r.rows.map((row) => row.name);
  } catch (err) {
    // No table yet: a new database, nothing applied. Anything else (the database unreachable) is the caller's.
    if (!/faultline_migrations/.test(String((err as Error).message)) || !/no such table|does not exist/.test(String((err as Error).message))) throw err;
  }
  const known = Object.keys(migrationsFor(db.dialect));
  const done = new Set(applied);
  return { applied, pending: known.filter((n) => !done.has(n)), unknown: applied.filter((n) => !known.includes(n)) };
}

/** Applies every pending migration; returns the names applied in this run. Refuses a database newer than this build. */
export async function migrateToLatest(db: Db, upTo?: string): Promise<string[]> {
  const { unknown } = await migrationStatus(db);
  if (unknown.length > 0) throw new SchemaNewerError(unknown);
  const provider: MigrationProvider = { getMigrations: async () => migrationsFor(db.dialect) };
  const migrator = new Migrator({ db: db.kysely, provider, migrationTableName: "faultline_migrations", migrationLockTableName: "faultline_migrations_lock" });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    throw new MigrationError(`migration ${failed?.migrationName ?? "(unknown)"} failed: ${String((error as Error).message ?? error)}`, error);
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
