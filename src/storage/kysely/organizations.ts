import type { Organization, OrganizationStore } from "../ports";
import { type Ctx, decodeCursor, nowIso, toBool, toPage, uniquely } from "./shared";

type OrgRow = { id: number; slug: string; name: string; created_at: string; require_two_factor: boolean | number };
const toOrg = (r: OrgRow): Organization => ({ id: r.id, slug: r.slug, name: r.name, createdAt: r.created_at, requireTwoFactor: toBool(r.require_two_factor) });
const columns = ["organizations.id", "organizations.slug", "organizations.name", "organizations.created_at", "organizations.require_two_factor"] as const;
const returned = ["id", "slug", "name", "created_at", "require_two_factor"] as const;

export function organizationStore({ db }: Ctx): OrganizationStore {
  return {
    async createOrganization({ slug, name, ownerUserId }) {
      return uniquely("organization", () =>
        db.transaction().execute(async (trx) => {
          const createdAt = nowIso();
          const org = await trx.insertInto("organizations").values({ slug, name, created_at: createdAt }).returning(returned).executeTakeFirstOrThrow();
          await trx.insertInto("members").values({ organization_id: org.id, user_id: ownerUserId, role: "owner", created_at: createdAt }).execute();
          return toOrg(org);
        }),
      );
    },
    async getOrganizationBySlug(slug) {
      const r = await db.selectFrom("organizations").select(columns).where("slug", "=", slug).executeTakeFirst();
      return r ? toOrg(r) : null;
    },
    async getOrganizationById(id) {
      const r = await db.selectFrom("organizations").select(columns).where("id", "=", id).executeTakeFirst();
      return r ? toOrg(r) : null;
    },
    async listOrganizations({ userId, all, page }) {
      const after = decodeCursor(page.cursor);
      let q = db
        .selectFrom("organizations")
        .select(columns)
        .orderBy("organizations.slug")
        .limit(page.limit + 1);
      if (!all) q = q.innerJoin("members", "members.organization_id", "organizations.id").where("members.user_id", "=", userId);
      if (after !== null) q = q.where("organizations.slug", ">", after);
      return toPage((await q.execute()).map(toOrg), page, (o) => o.slug);
    },
    async updateOrganization(id, patch) {
      if (patch.slug === undefined && patch.name === undefined) {
        const r = await db.selectFrom("organizations").select(columns).where("id", "=", id).executeTakeFirst();
        return r ? toOrg(r) : null;
      }
      const r = await uniquely("organization", () => db.updateTable("organizations").set(patch).where("id", "=", id).returning(returned).executeTakeFirst());
      return r ? toOrg(r) : null;
    },
    async deleteOrganization(id) {
      const r = await db.deleteFrom("organizations").where("id", "=", id).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}
