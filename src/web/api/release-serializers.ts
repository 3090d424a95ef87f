// Releases in Sentry's API shape (sentry `ReleaseSerializer`): dates, new issues and first/last event summed over the
// release's projects (or of the one project a project route shows), commits as set-commits sent them, and per project
// `healthData` from sessions when asked (`?health=1`).
import type { ReleaseView } from "../../core/releases";
import type { ReleaseHealthRow } from "../../storage/release-ports";

type StoredCommit = {
  id: string;
  repository?: string | null;
  message?: string | null;
  author_name?: string | null;
  author_email?: string | null;
  timestamp?: string | null;
};
type StoredRef = { repository: string; commit: string; previousCommit?: string | null };

const parseList = <T>(text: string | null): T[] => {
  try {
    const v = text ? (JSON.parse(text) as unknown) : [];
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
};

const percent = (part: number, whole: number) => (whole > 0 ? 100 - (part * 100) / whole : null);

/** Sentry's release health overview: crash-free rates in percent, errored sessions without the crashed and abnormal ones. */
export function serializeHealth(h: ReleaseHealthRow | undefined) {
  const r = h ?? { sessions: 0, sessionsErroredAll: 0, sessionsCrashed: 0, sessionsAbnormal: 0, users: 0, usersCrashed: 0, sessions24h: 0, users24h: 0 };
  return {
    durationP50: null,
    durationP90: null,
    crashFreeUsers: percent(r.usersCrashed, r.users),
    crashFreeSessions: percent(r.sessionsCrashed, r.sessions),
    sessionsCrashed: r.sessionsCrashed,
    sessionsErrored: Math.max(0, r.sessionsErroredAll - r.sessionsCrashed - r.sessionsAbnormal),
    totalUsers: r.users,
    totalUsers24h: r.users24h,
    totalSessions: r.sessions,
    totalSessions24h: r.sessions24h,
    totalProjectUsers24h: null,
    totalProjectSessions24h: null,
    adoption: null,
    sessionsAdoption: null,
    stats: {},
    hasHealthData: r.sessions > 0,
  };
}

/** The commits a release shows: those sent with `commits`, else one per ref's head commit. */
export function commitsOf(v: ReleaseView): StoredCommit[] {
  const commits = parseList<StoredCommit>(v.release.commits);
  if (commits.length > 0) return commits;
  return parseList<StoredRef>(v.release.refs).map((r) => ({ id: r.commit.includes("..") ? r.commit.split("..").pop()! : r.commit, repository: r.repository }));
}

export function serializeCommit(c: StoredCommit) {
  return {
    id: c.id,
    message: c.message ?? null,
    dateCreated: c.timestamp ?? null,
    repository: c.repository ? { name: c.repository } : null,
    author: c.author_email ? { name: c.author_name ?? c.author_email, email: c.author_email } : null,
  };
}

export function serializeRelease(v: ReleaseView) {
  const { release, forProject } = v;
  const rows = release.projects.filter((p) => (forProject ? p.projectId === forProject.id : true) && v.projects.has(p.projectId));
  const first =
    rows
      .map((r) => r.firstEvent)
      .filter((x): x is string => x !== null)
      .sort()[0] ?? null;
  const last =
    rows
      .map((r) => r.lastEvent)
      .filter((x): x is string => x !== null)
      .sort()
      .pop() ?? null;
  const commits = commitsOf(v);
  const authors = new Map<string, { name: string; email: string }>();
  for (const c of commits)
    if (c.author_email && !authors.has(c.author_email)) authors.set(c.author_email, { name: c.author_name ?? c.author_email, email: c.author_email });
  return {
    id: release.id,
    version: release.version,
    shortVersion: release.version,
    status: release.status,
    versionInfo: null,
    ref: release.ref,
    url: release.url,
    dateCreated: release.createdAt,
    dateReleased: release.releasedAt,
    dateStarted: release.startedAt,
    data: {},
    newGroups: rows.reduce((n, r) => n + r.newIssues, 0),
    owner: null,
    commitCount: commits.length,
    lastCommit: commits[0] ? serializeCommit(commits[0]) : null,
    deployCount: 0,
    lastDeploy: null,
    authors: [...authors.values()],
    firstEvent: first,
    lastEvent: last,
    projects: rows.map((r) => {
      const p = v.projects.get(r.projectId)!;
      const health = v.health.get(`${p.id}:${release.version}`);
      return {
        id: p.id,
        slug: p.slug,
        name: p.name,
        platform: p.platform,
        platforms: p.platform ? [p.platform] : [],
        newGroups: r.newIssues,
        hasHealthData: (health?.sessions ?? 0) > 0,
        ...(v.withHealthData ? { healthData: serializeHealth(health) } : {}),
      };
    }),
  };
}
