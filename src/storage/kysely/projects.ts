import { randomBytes } from "node:crypto";
import type { Project, ProjectStore } from "../ports";
import { isRole } from "../../core/roles";
import { type Ctx, dbBool, decodeCursor, nowIso, quotasColumn, rateLimitColumns, toBool, toPage, toQuotas, toRateLimit, uniquely } from "./shared";

type ProjectRow = {
  id: number;
  organization_id: number;
  team_id: number | null;
  slug: string;
  name: string;
  platform: string | null;
  created_at: string;
  rate_limit_count: number | null;
  rate_limit_window: number | null;
  scrape_javascript: boolean | number;
  quotas: string | null;
  retention_days: number | null;
  attachments_role: string | null;
};
const toProject = (r: ProjectRow): Project => ({
  id: r.id,
  organizationId: r.organization_id,
  teamId: r.team_id,
  slug: r.slug,
  name: r.name,
  platform: r.platform,
  createdAt: r.created_at,
  rateLimit: toRateLimit(r.rate_limit_count, r.rate_limit_window),
  quotas: toQuotas(r.quotas),
  scrapeJavaScript: toBool(r.scrape_javascript),
  retentionDays: r.retention_days === null ? null : Number(r.retention_days),
  attachmentsRole: isRole(r.attachments_role) ? r.attachments_role : null,
});
const columns = [
  "id",
  "organization_id",
  "team_id",
  "slug",
  "name",
  "platform",
  "created_at",
  "rate_limit_count",
  "rate_limit_window",
  "scrape_javascript",
  "quotas",
  "retention_days",
  "attachments_role",
] as const;

export function projectStore({ db, dialect }: Ctx): ProjectStore {
  const byId = async (id: number) => {
    const r = await db.selectFrom("projects").select(columns).where("id", "=", id).executeTakeFirst();
    return r ? toProject(r) : null;
  };
  return {
    async createProject({ organizationId, teamId, slug, name, platform }) {
      const r = await uniquely("project", () =>
        db
          .insertInto("projects")
          .values({
            organization_id: organizationId,
            team_id: teamId,
            slug,
            name,
            platform,
            created_at: nowIso(),
            webhook_secret: randomBytes(32).toString("hex"),
          })
          .returning(columns)
          .executeTakeFirstOrThrow(),
      );
      return toProject(r);
    },
    async getProjectBySlug(organizationId, slug) {
      const r = await db.selectFrom("projects").select(columns).where("organization_id", "=", organizationId).where("slug", "=", slug).executeTakeFirst();
      return r ? toProject(r) : null;
    },
    getProjectById: byId,
    async listProjects({ scope, page }) {
      if ("organizationIds" in scope && scope.organizationIds.length === 0) return { items: [], nextCursor: null };
      const after = decodeCursor(page.cursor);
      // Sorted by slug then id so that equal slugs in different organizations page deterministically.
      let q = db
        .selectFrom("projects")
        .select(columns)
        .orderBy("slug")
        .orderBy("id")
        .limit(page.limit + 1);
      if ("organizationIds" in scope) q = q.where("organization_id", "in", scope.organizationIds);
      if ("memberUserId" in scope) {
        q = q.where("organization_id", "in", db.selectFrom("members").select("organization_id").where("user_id", "=", scope.memberUserId));
      }
      if (after !== null) {
        const [slug = "", id = "0"] = after.split(":");
        q = q.where((eb) => eb.or([eb("slug", ">", slug), eb.and([eb("slug", "=", slug), eb("id", ">", Number(id))])]));
      }
      return toPage((await q.execute()).map(toProject), page, (p) => `${p.slug}:${p.id}`);
    },
    async updateProject(id, patch) {
      const set = Object.fromEntries(
        Object.entries({
          slug: patch.slug,
          name: patch.name,
          platform: patch.platform,
          team_id: patch.teamId,
          scrape_javascript: patch.scrapeJavaScript === undefined ? undefined : dbBool(dialect, patch.scrapeJavaScript),
          ...(patch.retentionDays !== undefined ? { retention_days: patch.retentionDays } : {}),
          ...(patch.attachmentsRole !== undefined ? { attachments_role: patch.attachmentsRole } : {}),
          ...rateLimitColumns(patch.rateLimit),
          ...quotasColumn(patch.quotas),
        }).filter(([, v]) => v !== undefined),
      );
      if (Object.keys(set).length === 0) return byId(id);
      const r = await uniquely("project", () => db.updateTable("projects").set(set).where("id", "=", id).returning(columns).executeTakeFirst());
      return r ? toProject(r) : null;
    },
    async deleteProject(id) {
      const r = await db.deleteFrom("projects").where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
