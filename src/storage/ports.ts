// The storage ports: small domain interfaces the core depends on. One Kysely implementation serves both dialects;
// tests/storage/conformance.ts checks these contracts on SQLite and on PostgreSQL.
import type { ClusterStore } from "./cluster-ports";
import type { MonitorStore } from "./monitor-ports";
import type { Role } from "../core/roles";
import type { QuotaCategory } from "../protocol/categories";
import type { OutcomeKind, Page, PageRequest, Quotas, RateLimit, StoredEvent } from "./records";
import type { AlertRuleStore } from "./alert-ports";
import type { DeadLetterStore } from "./dead-letter-ports";
import type { UserDataStore } from "./user-data-ports";
import type { AuditStore } from "./audit-ports";
import type { TwoFactorStore } from "./two-factor-ports";
import type { SsoStore } from "./sso-ports";
import type { SignInSessionStore } from "./sign-in-session-ports";
import type { FeedbackStore } from "./feedback-ports";
import type { AttachmentBlobs, AttachmentStore } from "./attachment-ports";
import type { LogStore } from "./log-ports";
import type { ScrubbingSettingsStore } from "./scrubbing-ports";
import type { NotificationStore } from "./notification-ports";
import type { MetricAlertStore } from "./metric-alert-ports";
import type { SpanRetentionStore, SpanStore } from "./span-ports";
import type { InvitationStore, ReleaseDetailStore } from "./dashboard-ports";
import type { DigestStore } from "./digest-ports";
import type { IssueStore } from "./issue-ports";
import type { IssueTriageStore } from "./triage-ports";
import type { NotificationSettingsStore } from "./notification-settings-ports";
import type { IssueStreamStore } from "./stream-ports";
import type { ReleaseStore } from "./release-ports";
import type { RetentionStore } from "./retention-ports";
import type { PartitionStore } from "./partition-ports";
import type { OrgTokenStore } from "./org-token-ports";
import type { ArtifactReads } from "./artifact-ports";
import type { UploadStore } from "./upload-ports";

export type { NewEvent, NewRawItem, OutcomeIncrement, OutcomeKind, Page, PageRequest, Quotas, RateLimit, StoredEvent } from "./records";
export type { DigestStore } from "./digest-ports";
export type { IssueStore } from "./issue-ports";

export type User = { id: string; email: string; name: string; isSuperuser: boolean; createdAt: string };
/** requireTwoFactor: members without two-factor sign-in see only the enrolment page (migration 0034). */
export type Organization = { id: number; slug: string; name: string; createdAt: string; requireTwoFactor: boolean };
export type Member = { id: number; organizationId: number; userId: string; role: Role; createdAt: string; email: string; name: string };
export type Team = { id: number; organizationId: number; slug: string; name: string; createdAt: string; memberCount: number };
/** Every quota of a key or project, errors included: what the intake applies. */
export type QuotaMap = Partial<Record<QuotaCategory, RateLimit>>;

export type Project = {
  id: number;
  organizationId: number;
  teamId: number | null;
  slug: string;
  name: string;
  platform: string | null;
  createdAt: string;
  rateLimit: RateLimit | null;
  quotas: Quotas;
  /** Whether the digest may fetch JavaScript sources and source maps from public URLs (off unless turned on). */
  scrapeJavaScript: boolean;
  /** Days the project keeps its events when shorter than the instance's FAULTLINE_RETENTION_DAYS; null: the instance's. */
  retentionDays: number | null;
  /** The least role that may download the project's attachments (Sentry's attachmentsRole); null: member. */
  attachmentsRole: Role | null;
};
export type ProjectKey = {
  id: number;
  projectId: number;
  label: string;
  publicKey: string;
  secretKey: string;
  isActive: boolean;
  createdAt: string;
  rateLimit: RateLimit | null;
  quotas: Quotas;
};
export type ApiToken = {
  id: number;
  userId: string;
  name: string;
  tokenSuffix: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Sentry scopes (core/token-scopes.ts); null: made before tokens had scopes, full access as its owner's role allows. */
  scopes: string[] | null;
  /** ISO timestamp after which the token is refused; null: it does not expire. */
  expiresAt: string | null;
};

/** Thrown by a store when a unique constraint (slug, e-mail, key) would be violated. */
export class DuplicateError extends Error {
  readonly isDuplicateError = true;
  constructor(readonly entity: string) {
    super(`${entity} already exists`);
    this.name = "DuplicateError";
  }
}

/** Works across bundles (the server and Next's server bundle each load their own copy of this module). */
export function isDuplicateError(err: unknown): err is DuplicateError {
  return typeof err === "object" && err !== null && (err as { isDuplicateError?: unknown }).isDuplicateError === true;
}

export interface InstanceStore {
  /** Sets a key that must not exist yet; false when it already does (whoever set it first wins). */
  claimSetting(key: string, value: string): Promise<boolean>;
  releaseSetting(key: string): Promise<void>;
  /** The value of a key; null when it is not set. */
  getSetting(key: string): Promise<string | null>;
}

export interface UserStore {
  countUsers(): Promise<number>;
  getUserById(id: string): Promise<User | null>;
  /** E-mail match is case-insensitive. */
  getUserByEmail(email: string): Promise<User | null>;
  /** Every account, ordered by e-mail (the instance settings' list; a cursor is the last e-mail of the page before). */
  listUsers(page: PageRequest): Promise<Page<User>>;
  setSuperuser(userId: string, isSuperuser: boolean): Promise<void>;
}

export interface OrganizationStore {
  /** Creates the organization and makes `ownerUserId` its owner, atomically. DuplicateError on a taken slug. */
  createOrganization(input: { slug: string; name: string; ownerUserId: string }): Promise<Organization>;
  getOrganizationBySlug(slug: string): Promise<Organization | null>;
  getOrganizationById(id: number): Promise<Organization | null>;
  /** Organizations the user is a member of, ordered by slug; every organization when `all` is set (superusers). */
  listOrganizations(input: { userId: string; all: boolean; page: PageRequest }): Promise<Page<Organization>>;
  /** Returns null when no row matched. DuplicateError on a taken slug. */
  updateOrganization(id: number, patch: { slug?: string; name?: string }): Promise<Organization | null>;
  deleteOrganization(id: number): Promise<boolean>;
}

export interface MemberStore {
  getMembership(organizationId: number, userId: string): Promise<Member | null>;
  getMember(organizationId: number, memberId: number): Promise<Member | null>;
  listMembers(organizationId: number): Promise<Member[]>;
  // No way to add a member here: people join by accepting an invitation (InvitationStore.acceptInvitation), or by
  // creating an organization.
  /**
   * Changes a role, or removes a member, unless that would leave the organization without an owner. The check and
   * the write are one transaction (owner rows locked on PostgreSQL), so two owners stepping down at once cannot both
   * succeed.
   */
  updateMemberRole(organizationId: number, memberId: number, role: Role): Promise<Member | "last_owner" | null>;
  removeMember(organizationId: number, memberId: number): Promise<boolean | "last_owner">;
  countOwners(organizationId: number): Promise<number>;
}

export interface TeamStore {
  /** DuplicateError on a slug taken in the organization. */
  createTeam(input: { organizationId: number; slug: string; name: string }): Promise<Team>;
  getTeamBySlug(organizationId: number, slug: string): Promise<Team | null>;
  getTeamById(organizationId: number, teamId: number): Promise<Team | null>;
  listTeams(organizationId: number, page: PageRequest): Promise<Page<Team>>;
  deleteTeam(organizationId: number, teamId: number): Promise<boolean>;
  /** Idempotent. */
  addTeamMember(teamId: number, memberId: number): Promise<void>;
  removeTeamMember(teamId: number, memberId: number): Promise<void>;
  listTeamIdsOfMember(memberId: number): Promise<number[]>;
}

export interface ProjectStore {
  /** DuplicateError on a slug taken in the organization. */
  createProject(input: { organizationId: number; teamId: number | null; slug: string; name: string; platform: string | null }): Promise<Project>;
  getProjectBySlug(organizationId: number, slug: string): Promise<Project | null>;
  getProjectById(id: number): Promise<Project | null>;
  /** Ordered by slug, then id: of some organizations, of every organization a user belongs to, or of all. */
  listProjects(input: { scope: { organizationIds: number[] } | { memberUserId: string } | { all: true }; page: PageRequest }): Promise<Page<Project>>;
  updateProject(
    id: number,
    patch: {
      slug?: string;
      name?: string;
      platform?: string | null;
      teamId?: number | null;
      rateLimit?: RateLimit | null;
      quotas?: Quotas;
      scrapeJavaScript?: boolean;
      retentionDays?: number | null;
      attachmentsRole?: Role | null;
    },
  ): Promise<Project | null>;
  deleteProject(id: number): Promise<boolean>;
}

export interface ProjectKeyStore {
  createKey(input: { projectId: number; label: string; publicKey: string; secretKey: string }): Promise<ProjectKey>;
  listKeys(projectId: number): Promise<ProjectKey[]>;
  getKey(projectId: number, keyId: number): Promise<ProjectKey | null>;
  /** The key a DSN names, whatever its project; null when unknown. */
  getKeyByPublicKey(publicKey: string): Promise<ProjectKey | null>;
  updateKey(
    projectId: number,
    keyId: number,
    patch: { label?: string; isActive?: boolean; rateLimit?: RateLimit | null; quotas?: Quotas },
  ): Promise<ProjectKey | null>;
  deleteKey(projectId: number, keyId: number): Promise<boolean>;
}

export interface ApiTokenStore {
  createToken(input: {
    userId: string;
    name: string;
    tokenHash: string;
    tokenSuffix: string;
    scopes: string[] | null;
    expiresAt: string | null;
  }): Promise<ApiToken>;
  listTokens(userId: string): Promise<ApiToken[]>;
  /** Resolves a token hash to its owner and records the use (expired or not: the caller decides). */
  useToken(tokenHash: string, now: string): Promise<{ token: ApiToken; user: User } | null>;
  deleteToken(userId: string, tokenId: number): Promise<boolean>;
}

/** What the intake needs to know about a DSN key, in one lookup. */
/** A DSN key as the intake sees it: its quotas and its project's, and whether it is the internal project's. */
/** organizationQuotas: the organization's own quotas (issue 19: attachments in bytes), shared by all its projects. */
export type IntakeKey = {
  keyId: number;
  projectId: number;
  isActive: boolean;
  keyQuotas: QuotaMap;
  projectQuotas: QuotaMap;
  internal: boolean;
  organizationId: number;
  organizationQuotas: QuotaMap;
};

export interface IntakeStore {
  getIntakeKey(publicKey: string): Promise<IntakeKey | null>;
}

/** Per-organization quotas (migration 0030), as the organization's settings and API set them. */
export interface OrganizationQuotaStore {
  organizationQuotas(organizationId: number): Promise<Quotas>;
  setOrganizationQuotas(organizationId: number, quotas: Quotas): Promise<void>;
}

export type OutcomeTotal = { category: string; outcome: OutcomeKind; reason: string; quantity: number };

export interface EventStore {
  /** Newest first; "errors" is every event but transactions (as Sentry's project events list), "transactions" the rest. */
  listEvents(projectId: number, kind: "errors" | "transactions", page: PageRequest): Promise<Page<StoredEvent>>;
  getEvent(projectId: number, eventId: string): Promise<StoredEvent | null>;
}

export interface OutcomeStore {
  /** Totals since an hour (inclusive), by category, outcome and reason. */
  outcomeTotals(projectId: number, sinceHour: string): Promise<OutcomeTotal[]>;
  /** Hourly sums of the given outcomes and categories, between two hours inclusive; hours without counts are absent. */
  outcomeSeries(
    projectId: number,
    q: { sinceHour: string; untilHour: string; outcomes: OutcomeKind[]; categories: string[] },
  ): Promise<{ hour: string; quantity: number }[]>;
}

export type Store = SsoStore &
  SignInSessionStore &
  LogStore &
  PartitionStore & { attachmentBlobs: AttachmentBlobs } & AttachmentStore &
  OrganizationQuotaStore &
  AuditStore &
  TwoFactorStore &
  FeedbackStore &
  MonitorStore &
  ClusterStore &
  ScrubbingSettingsStore &
  UserDataStore &
  AlertRuleStore &
  MetricAlertStore &
  NotificationStore &
  DeadLetterStore &
  InstanceStore &
  UserStore &
  OrganizationStore &
  MemberStore &
  TeamStore &
  ProjectStore &
  ProjectKeyStore &
  ApiTokenStore &
  IntakeStore &
  DigestStore &
  EventStore &
  OutcomeStore &
  IssueStore &
  IssueTriageStore &
  IssueStreamStore &
  ReleaseStore &
  RetentionStore &
  ReleaseDetailStore &
  InvitationStore &
  OrgTokenStore &
  ArtifactReads &
  UploadStore &
  SpanStore &
  SpanRetentionStore &
  NotificationSettingsStore;
