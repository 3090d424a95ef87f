// Releases (Sentry's release objects, per organization, with their per-project rows) and release health read from the
// session counts the digest keeps (storage/session-ports.ts).
import type { Page, PageRequest } from "./records";

export type ReleaseProjectRow = { projectId: number; newIssues: number; firstEvent: string | null; lastEvent: string | null };

export type Release = {
  id: number;
  organizationId: number;
  version: string;
  createdAt: string;
  releasedAt: string | null;
  startedAt: string | null;
  ref: string | null;
  url: string | null;
  /** JSON arrays as set-commits sent them (owned by core/releases.ts); null when never set. */
  refs: string | null;
  commits: string | null;
  status: ReleaseStatus;
  projects: ReleaseProjectRow[];
};

/** Sentry's release statuses: an archived release is kept but set aside (sentry-cli `releases archive`). */
export type ReleaseStatus = "open" | "archived";

/** The columns a create or an update writes; absent fields stay as they are. */
export type ReleaseFields = {
  releasedAt?: string | null;
  startedAt?: string | null;
  ref?: string | null;
  url?: string | null;
  refs?: string | null;
  commits?: string | null;
  status?: ReleaseStatus;
};

/** Session totals of one release in one project, over all time and over the last 24 hours. */
export type ReleaseHealthRow = {
  projectId: number;
  version: string;
  sessions: number;
  /** Sessions with errors, crashed and abnormal ones included. */
  sessionsErroredAll: number;
  sessionsCrashed: number;
  sessionsAbnormal: number;
  users: number;
  usersCrashed: number;
  sessions24h: number;
  users24h: number;
};

export type ReleaseListQuery = {
  organizationId: number;
  /** Only releases of these projects (any project of the organization when null). */
  projectIds: number[] | null;
  /** Part of the version, case-insensitive. */
  query: string | null;
  page: PageRequest;
};

export interface ReleaseStore {
  getRelease(organizationId: number, version: string): Promise<Release | null>;
  /** Newest first (by when the release was created). */
  listReleases(q: ReleaseListQuery): Promise<Page<Release>>;
  /** Creates the release with these projects, or adds the projects to the existing one; `created` says which. */
  upsertRelease(
    input: { organizationId: number; version: string; projectIds: number[]; createdAt: string } & ReleaseFields,
  ): Promise<{ release: Release; created: boolean }>;
  /** Updates columns and adds projects (a release never loses a project through an update). */
  updateRelease(releaseId: number, fields: ReleaseFields, addProjectIds: number[]): Promise<void>;
  deleteRelease(releaseId: number): Promise<void>;
  /** The newest release created before this one that has refs or commits (set-commits --local starts after it). */
  previousReleaseWithCommits(release: Pick<Release, "organizationId" | "createdAt" | "id">): Promise<Release | null>;
  /** Health per (project, release), counted from `since24h` for the 24-hour figures; environments null means all. */
  releaseHealth(projectIds: number[], versions: string[], opts: { environments: string[] | null; since24h: string }): Promise<ReleaseHealthRow[]>;
}
