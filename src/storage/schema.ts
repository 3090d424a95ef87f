// Row types of every table, as Kysely sees them. Timestamps of Faultline's own tables are ISO-8601 UTC strings in
// both dialects, so that rows read the same on SQLite and PostgreSQL; booleans are 0/1 on SQLite.
import type { Generated } from "kysely";
import type { AlertTables } from "./alert-schema";
import type { MetricAlertTables } from "./metric-alert-schema";
import type { NotificationTables } from "./notification-schema";
import type { NotificationSettingsTables } from "./notification-settings-schema";
import type { SpanTables } from "./span-schema";
import type { UserDataTables } from "./user-data-schema";
import type { ClusterTables } from "./cluster-schema";
import type { MonitorTables } from "./monitor-schema";
import type { LogTables } from "./log-schema";
import type { FeedbackTables } from "./feedback-schema";
import type { AttachmentTables } from "./attachment-schema";
import type { AuditTables } from "./audit-schema";
import type { TwoFactorTables } from "./two-factor-schema";
import type { SsoTables } from "./sso-schema";
import type { AccountsTable, RateLimitsTable, SessionsTable, UsersTable, VerificationsTable } from "./auth-schema";

type Bool = boolean | number;

export type { AccountsTable, RateLimitsTable, SessionsTable, UsersTable, VerificationsTable } from "./auth-schema";

/** alerts_member_write: Sentry's "Let members create alerts" (migration 0021). */
/** data_scrubbing: the organization's data scrubbing options as JSON, null for the defaults (0025). */
export type OrganizationsTable = {
  id: Generated<number>;
  slug: string;
  name: string;
  created_at: string;
  alerts_member_write: Generated<Bool>;
  data_scrubbing: string | null;
  /** Per-organization quotas as JSON (0030). */ quotas: string | null;
  require_two_factor: Generated<Bool>;
  /** 0035 */ require_sso: Generated<Bool>;
  sso_auto_join_role: Generated<string>;
};

export type MembersTable = {
  id: Generated<number>;
  organization_id: number;
  user_id: string;
  role: string;
  created_at: string;
};

export type TeamsTable = {
  id: Generated<number>;
  organization_id: number;
  slug: string;
  name: string;
  created_at: string;
};

export type TeamMembersTable = { team_id: number; member_id: number };

export type ProjectsTable = {
  id: Generated<number>;
  organization_id: number;
  team_id: number | null;
  slug: string;
  name: string;
  platform: string | null;
  created_at: string;
  rate_limit_count: number | null;
  rate_limit_window: number | null;
  /** The last short id handed to an issue of the project (PROJ-1, PROJ-2, …). */
  issue_counter: Generated<number>;
  /** Whether the digest may fetch source files and maps from the public URLs of the project's events (0016). */
  scrape_javascript: Generated<Bool>;
  /** Quotas of the categories other than errors, as JSON (0017). */
  quotas: string | null;
  /** Signs the project's webhooks (Sentry-Hook-Signature): 32 random bytes in hex, set when the project is made (0021). */
  webhook_secret: string | null;
  /** Days the project keeps its events, shorter than the instance's; null: the instance's (0024). */
  retention_days: number | null;
  /** The project's data scrubbing options as JSON; null for the defaults (0025). */
  data_scrubbing: string | null;
  /** The least role that may download the project's attachments (Sentry's attachmentsRole); null: member (0030). */
  attachments_role: string | null;
};

export type ProjectKeysTable = {
  id: Generated<number>;
  project_id: number;
  label: string;
  public_key: string;
  secret_key: string;
  is_active: Bool;
  created_at: string;
  rate_limit_count: number | null;
  rate_limit_window: number | null;
  /** Quotas of the categories other than errors, as JSON (0017). */
  quotas: string | null;
};

export type ApiTokensTable = {
  id: Generated<number>;
  user_id: string;
  name: string;
  token_hash: string;
  token_suffix: string;
  created_at: string;
  last_used_at: string | null;
  /** JSON array of Sentry scopes (migration 0032); null: a token from before scopes, with full access. */
  scopes: string | null;
  expires_at: string | null;
};

export type EventsTable = {
  id: Generated<number>;
  project_id: number;
  event_id: string;
  type: string;
  received_at: string;
  timestamp: string;
  platform: string;
  level: string;
  title: string;
  message: string;
  culprit: string;
  release: string | null;
  environment: string | null;
  size: number;
  /** The event's JSON as storage/event-codec.ts encodes it: bytes with a codec byte, or TEXT JSON in rows of older releases. */
  data: string | Uint8Array;
  issue_id: number | null;
};

export type RawItemsTable = {
  id: Generated<number>;
  project_id: number;
  type: string;
  event_id: string | null;
  received_at: string;
  headers: string;
  payload: Uint8Array;
};

/** PostgreSQL returns bigint columns as strings. */
export type OutcomesTable = { project_id: number; hour: string; category: string; outcome: string; reason: string; quantity: number | string };

export type SpoolCursorsTable = { spool_id: string; position: number | string; updated_at: string };

export type IssuesTable = {
  id: Generated<number>;
  project_id: number;
  short_id: number;
  type: string;
  title: string;
  culprit: string;
  level: string;
  platform: string;
  /** JSON: Sentry's issue metadata (type, value, filename, function, title…). */
  metadata: string;
  status: string;
  substatus: string | null;
  /** JSON: how the issue was resolved (in a release, in the next release), while it is. */
  resolution: string | null;
  /** JSON: the conditions that end an ignore (until, count, window, users…) and the baseline when it was set. */
  snooze: string | null;
  first_seen: string;
  last_seen: string;
  times_seen: number | string;
  first_release: string | null;
  assignee_id: string | null;
  /** Distinct users of the issue's events (issue_users), kept by the digest so the list can sort by it. */
  user_count: Generated<number | string>;
  assignee_team_id: number | null;
};

export type IssueHashesTable = { project_id: number; hash: string; issue_id: number; grouping_config: string };
export type IssueActivityTable = { id: Generated<number>; issue_id: number; type: string; user_id: string | null; data: string; created_at: string };
export type IssueCountsTable = { issue_id: number; hour: string; count: number | string };
/** Events per issue per UTC day ("2026-11-23"); kept past the retention of the hourly counters. */
export type IssueCountsDailyTable = { issue_id: number; day: string; count: number | string };
export type IssueUsersTable = { issue_id: number; user_key: string; first_seen: string; last_seen: string };
export type IssueTagsTable = { issue_id: number; key: string; value: string; times_seen: number | string; first_seen: string; last_seen: string };
export type ReleasesTable = {
  id: Generated<number>;
  organization_id: number;
  version: string;
  created_at: string;
  released_at: string | null;
  ref: string | null;
  url: string | null;
  started_at: string | null;
  refs: string | null;
  commits: string | null;
  /** "open" or "archived" (migration 0011). */
  status: Generated<string>;
};
export type ReleaseSessionStatesTable = {
  project_id: number;
  session_id: string;
  release: string;
  environment: string;
  hour: string;
  distinct_id: string | null;
  errored: boolean | number;
  status: string;
};
export type ReleaseSessionCountsTable = {
  project_id: number;
  release: string;
  environment: string;
  hour: string;
  started: number | string;
  errored: number | string;
  crashed: number | string;
  abnormal: number | string;
};
export type ReleaseSessionUsersTable = {
  project_id: number;
  release: string;
  environment: string;
  distinct_id: string;
  crashed: boolean | number;
  first_seen: string;
  last_seen: string;
};
export type ReleaseProjectsTable = { release_id: number; project_id: number; new_issues: number; first_event: string | null; last_event: string | null };
export type EnvironmentsTable = { id: Generated<number>; organization_id: number; name: string; created_at: string };
export type EnvironmentProjectsTable = { environment_id: number; project_id: number };

export type InvitationsTable = {
  id: Generated<number>;
  organization_id: number;
  role: string;
  token_hash: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  accepted_by: string | null;
  accepted_at: string | null;
  /** The address invited (lowercase); null only on links made before 0019, which it ended. */
  email: string | null;
};

export type OrgAuthTokensTable = {
  id: Generated<number>;
  organization_id: number;
  name: string;
  token_hash: string;
  token_suffix: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

/** A piece of an upload (sentry-cli chunk upload), kept until a bundle is assembled from it (migration 0015). */
export type UploadChunksTable = { organization_id: number; checksum: string; data: Uint8Array; size: number; created_at: string };
/** An artifact bundle (checksum: its SHA-1), or a legacy release file as a bundle of one (checksum null). */
export type ArtifactBundlesTable = {
  id: Generated<number>;
  organization_id: number;
  checksum: string | null;
  bundle_id: string | null;
  size: number;
  file_count: number;
  created_at: string;
  last_used_at: string;
};
/** Where a bundle's files apply: a project, and a release and dist ("" for none). */
export type ArtifactBundleLinksTable = { bundle_id: number; project_id: number; release: string; dist: string };
/** One file of a bundle; `data` is deflated (raw), `headers` JSON with lower-cased names. */
export type ArtifactFilesTable = {
  id: Generated<number>;
  bundle_id: number;
  path: string;
  url: string;
  type: string | null;
  debug_id: string | null;
  headers: string;
  size: number;
  sha1: string;
  data: Uint8Array;
};

export type InstanceSettingsTable = { key: string; value: string; created_at: string };

export type DeadLettersTable = {
  id: Generated<number>;
  spool_id: string;
  record_id: number | string;
  project_id: number | null;
  item_type: string;
  event_id: string | null;
  received_at: string;
  record: Uint8Array;
  size: number;
  error: string;
  attempts: number;
  failed_at: string;
  retried_at: string | null;
};

export type Database = {
  instance_settings: InstanceSettingsTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  rate_limits: RateLimitsTable;
  organizations: OrganizationsTable;
  members: MembersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  projects: ProjectsTable;
  project_keys: ProjectKeysTable;
  api_tokens: ApiTokensTable;
  events: EventsTable;
  raw_items: RawItemsTable;
  outcomes: OutcomesTable;
  spool_cursors: SpoolCursorsTable;
  issues: IssuesTable;
  issue_hashes: IssueHashesTable;
  issue_activity: IssueActivityTable;
  issue_counts: IssueCountsTable;
  issue_counts_daily: IssueCountsDailyTable;
  issue_users: IssueUsersTable;
  issue_tags: IssueTagsTable;
  releases: ReleasesTable;
  release_projects: ReleaseProjectsTable;
  release_session_states: ReleaseSessionStatesTable;
  release_session_counts: ReleaseSessionCountsTable;
  release_session_users: ReleaseSessionUsersTable;
  environments: EnvironmentsTable;
  environment_projects: EnvironmentProjectsTable;
  invitations: InvitationsTable;
  org_auth_tokens: OrgAuthTokensTable;
  upload_chunks: UploadChunksTable;
  artifact_bundles: ArtifactBundlesTable;
  artifact_bundle_links: ArtifactBundleLinksTable;
  artifact_files: ArtifactFilesTable;
  dead_letters: DeadLettersTable;
} & SpanTables &
  NotificationTables &
  NotificationSettingsTables &
  AlertTables &
  MetricAlertTables &
  UserDataTables &
  ClusterTables &
  MonitorTables &
  FeedbackTables &
  AttachmentTables &
  LogTables &
  AuditTables &
  TwoFactorTables &
  SsoTables;
