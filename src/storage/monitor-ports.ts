// The storage port of cron monitors (issue 19): monitors, their state per environment and their check-ins. The
// digest applies check-ins inside its batch transaction (MonitorTx is part of DigestTx); the scheduler claims missed
// deadlines and timeouts in transactions of its own (monitorTransaction), each claim a conditional UPDATE, so that
// several processes on one database handle each deadline once. The core reads and edits through MonitorStore.
export type ScheduleType = "crontab" | "interval";
export const INTERVAL_UNITS = ["minute", "hour", "day", "week", "month", "year"] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];
export type CheckInStatus = "ok" | "error" | "in_progress" | "missed" | "timeout" | "unknown";

/** A monitor's schedule and thresholds (Sentry's monitor_config; null: Sentry's default). */
export type MonitorConfig = {
  scheduleType: ScheduleType;
  /** The crontab expression, or the interval's count as text. */
  schedule: string;
  intervalUnit: IntervalUnit | null;
  timezone: string;
  checkinMargin: number | null;
  maxRuntime: number | null;
  failureIssueThreshold: number | null;
  recoveryThreshold: number | null;
};

export type Monitor = MonitorConfig & {
  id: number;
  guid: string;
  organizationId: number;
  projectId: number;
  slug: string;
  name: string;
  status: "active" | "disabled";
  isMuted: boolean;
  createdAt: string;
};

export type MonitorEnvironment = {
  id: number;
  monitorId: number;
  environment: string;
  status: "active" | "ok" | "error";
  lastCheckin: string | null;
  nextCheckin: string | null;
  nextCheckinLatest: string | null;
  inIncident: boolean;
  /** Consecutive failed check-ins. */
  failures: number;
  /** Consecutive successful check-ins during an incident. */
  successes: number;
};

export type MonitorEnvironmentPatch = Partial<Omit<MonitorEnvironment, "id" | "monitorId" | "environment">>;

export type CheckIn = {
  id: number;
  guid: string;
  monitorId: number;
  environmentId: number;
  projectId: number;
  status: CheckInStatus;
  durationMs: number | null;
  dateAdded: string;
  dateUpdated: string;
  expectedTime: string | null;
  timeoutAt: string | null;
};

export type NewCheckIn = Omit<CheckIn, "id">;
export type CheckInPatch = Partial<Pick<CheckIn, "status" | "durationMs" | "dateUpdated" | "timeoutAt">>;

export type NewMonitor = MonitorConfig & { projectId: number; slug: string; name: string; isMuted?: boolean; status?: Monitor["status"] };
export type MonitorPatch = Partial<MonitorConfig & { name: string; slug: string; isMuted: boolean; status: Monitor["status"] }>;

export interface MonitorTx {
  /** The project's monitor of that slug (a slug of another project of the organization names nothing here). */
  monitorBySlug(projectId: number, slug: string): Promise<Monitor | null>;
  /** Creates the monitor, or updates its configuration; null when the organization's slug is another project's, or the organization has its most. */
  upsertMonitor(projectId: number, slug: string, config: MonitorConfig, now: string): Promise<Monitor | null>;
  /** The monitor's state in the environment, created ("active", no deadline) on first use; on PostgreSQL locked to the end of the transaction. */
  monitorEnvironment(monitorId: number, environment: string): Promise<MonitorEnvironment>;
  updateMonitorEnvironment(id: number, patch: MonitorEnvironmentPatch): Promise<void>;
  /**
   * The scheduler's claim of a missed deadline: moves the environment past it only if its deadline is still
   * `deadline`. True for the one transaction that moved it.
   */
  claimMissedDeadline(id: number, deadline: string, patch: MonitorEnvironmentPatch): Promise<boolean>;
  checkInByGuid(monitorId: number, guid: string): Promise<CheckIn | null>;
  /** The newest check-in of the environment still in progress, for an SDK update without a check-in id. */
  latestInProgress(environmentId: number): Promise<CheckIn | null>;
  /** Stores a check-in; null when the monitor already has one with that id. */
  insertCheckIn(checkIn: NewCheckIn): Promise<CheckIn | null>;
  /** Updates a check-in only while it is in progress; true when it was. */
  finishCheckIn(id: number, patch: CheckInPatch): Promise<boolean>;
}

export type DueDeadline = { monitor: Monitor; environment: MonitorEnvironment };
export type DueTimeout = { monitor: Monitor; environment: MonitorEnvironment; checkIn: CheckIn };
export type MonitorWithEnvironments = Monitor & { environments: MonitorEnvironment[] };

export interface MonitorStore {
  monitorTransaction<T>(work: (tx: MonitorTx) => Promise<T>): Promise<T>;
  /** Environments of active monitors whose deadline passed at `now`, earliest first. */
  dueDeadlines(now: string, limit: number): Promise<DueDeadline[]>;
  /** In-progress check-ins of active monitors whose runtime ended at `now`. */
  dueTimeouts(now: string, limit: number): Promise<DueTimeout[]>;
  /** The organization's monitors (of these projects, when given), by name, with their environments. */
  listMonitors(organizationId: number, projectIds: number[] | null): Promise<MonitorWithEnvironments[]>;
  monitorInOrganization(organizationId: number, slug: string): Promise<MonitorWithEnvironments | null>;
  createMonitor(monitor: NewMonitor, now: string): Promise<Monitor | null>;
  /** Null when there is no such monitor, or the new slug is taken. */
  updateMonitor(id: number, patch: MonitorPatch): Promise<Monitor | null>;
  deleteMonitor(id: number): Promise<boolean>;
  /** The newest check-ins of each environment, newest first (at most `perEnvironment` each). */
  recentCheckIns(environmentIds: number[], perEnvironment: number): Promise<CheckIn[]>;
  /** An active public key of the project, to send its monitors' failure events with. */
  activePublicKey(projectId: number): Promise<string | null>;
  /**
   * Deletes up to `limit` check-ins that arrived before `cutoff` (ISO), oldest first (by id, which follows arrival,
   * as events are pruned). Returns how many; fewer than `limit` means nothing more is due.
   */
  pruneCheckInsBefore(cutoff: string, limit: number): Promise<number>;
}
