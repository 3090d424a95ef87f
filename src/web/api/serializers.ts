// Sentry's web API shapes (camelCase, string ids) for Faultline's objects.
import { buildDsn } from "../../core/keys";
import type { Organization, Project, ProjectKey, Quotas, Team, User } from "../../storage/ports";

const letterAvatar = { avatarType: "letter_avatar", avatarUuid: null };

export function serializeUser(u: User) {
  return { id: u.id, name: u.name, username: u.email, email: u.email, isSuperuser: u.isSuperuser, dateJoined: u.createdAt };
}

export function serializeOrganization(o: Organization, extra: { role?: string | null } = {}) {
  return {
    id: String(o.id),
    slug: o.slug,
    name: o.name,
    dateCreated: o.createdAt,
    status: { id: "active", name: "active" },
    isEarlyAdopter: false,
    require2FA: o.requireTwoFactor,
    requireEmailVerification: false,
    features: [] as string[],
    avatar: letterAvatar,
    ...(extra.role !== undefined ? { orgRole: extra.role ?? "owner" } : {}),
  };
}

export function serializeTeam(t: Team, isMember: boolean) {
  return {
    id: String(t.id),
    slug: t.slug,
    name: t.name,
    dateCreated: t.createdAt,
    isMember,
    hasAccess: true,
    isPending: false,
    memberCount: t.memberCount,
    avatar: letterAvatar,
  };
}

export function serializeProject(p: Project, org: Organization, team: Team | null, isMember: boolean) {
  const teamRef = team ? { id: String(team.id), slug: team.slug, name: team.name } : null;
  return {
    id: String(p.id),
    slug: p.slug,
    name: p.name,
    platform: p.platform,
    dateCreated: p.createdAt,
    isBookmarked: false,
    isMember,
    hasAccess: true,
    features: [] as string[],
    firstEvent: null,
    status: "active",
    rateLimit: p.rateLimit ? { window: p.rateLimit.windowSeconds, count: p.rateLimit.count } : null,
    quotas: serializeQuotas(p.quotas),
    scrapeJavaScript: p.scrapeJavaScript,
    // Faultline's: days the project keeps its events when shorter than the instance's; null: the instance's.
    retentionDays: p.retentionDays,
    // Sentry's: the least role that may download the project's attachments (issue 19); member when unset.
    attachmentsRole: p.attachmentsRole ?? "member",
    organization: { id: String(org.id), slug: org.slug, name: org.name },
    team: teamRef,
    teams: teamRef ? [teamRef] : [],
    avatar: letterAvatar,
  };
}

/** Quotas of the other data categories, in `rateLimit`'s shape (Faultline's addition to Sentry's key and project). */
export function serializeQuotas(quotas: Quotas): Record<string, { window: number; count: number }> {
  return Object.fromEntries(Object.entries(quotas).flatMap(([name, q]) => (q ? [[name, { window: q.windowSeconds, count: q.count }]] : [])));
}

export function serializeKey(k: ProjectKey, p: Project, publicUrl: string, basePath: string) {
  const dsn = buildDsn(publicUrl, basePath, k, p);
  const ingest = `${publicUrl}${basePath}/api/${p.id}`;
  return {
    id: k.publicKey,
    name: k.label,
    label: k.label,
    public: k.publicKey,
    secret: k.secretKey,
    projectId: p.id,
    isActive: k.isActive,
    dateCreated: k.createdAt,
    rateLimit: k.rateLimit ? { window: k.rateLimit.windowSeconds, count: k.rateLimit.count } : null,
    quotas: serializeQuotas(k.quotas),
    dsn: {
      public: dsn.public,
      secret: dsn.secret,
      csp: `${ingest}/security/?sentry_key=${k.publicKey}`,
      security: `${ingest}/security/?sentry_key=${k.publicKey}`,
      store: `${ingest}/store/`,
      envelope: `${ingest}/envelope/`,
    },
  };
}
