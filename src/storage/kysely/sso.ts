import { isRole, type Role } from "../../core/roles";
import type { SsoStore } from "../sso-ports";
import { type Ctx, dbBool, nowIso, toBool } from "./shared";

const roleOf = (v: string): Role => (isRole(v) ? v : "member");

export function ssoStore({ db, dialect }: Ctx): SsoStore {
  return {
    async getOrgSso(organizationId) {
      const org = await db.selectFrom("organizations").select(["require_sso", "sso_auto_join_role"]).where("id", "=", organizationId).executeTakeFirst();
      if (!org) return null;
      const domains = await db.selectFrom("sso_auto_join_domains").select("domain").where("organization_id", "=", organizationId).orderBy("domain").execute();
      return { requireSso: toBool(org.require_sso), autoJoinRole: roleOf(org.sso_auto_join_role), autoJoinDomains: domains.map((d) => d.domain) };
    },
    async setOrgSso(organizationId, s) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable("organizations")
          .set({ require_sso: dbBool(dialect, s.requireSso), sso_auto_join_role: s.autoJoinRole })
          .where("id", "=", organizationId)
          .execute();
        await trx.deleteFrom("sso_auto_join_domains").where("organization_id", "=", organizationId).execute();
        const domains = [...new Set(s.autoJoinDomains)];
        if (domains.length > 0)
          await trx
            .insertInto("sso_auto_join_domains")
            .values(domains.map((domain) => ({ organization_id: organizationId, domain })))
            .execute();
      });
    },
    async listAutoJoinOrganizations(domain) {
      const rows = await db
        .selectFrom("sso_auto_join_domains")
        .innerJoin("organizations", "organizations.id", "sso_auto_join_domains.organization_id")
        .select(["organizations.id", "organizations.sso_auto_join_role"])
        .where("sso_auto_join_domains.domain", "=", domain)
        .orderBy("organizations.id")
        .execute();
      return rows.map((r) => ({ organizationId: r.id, role: roleOf(r.sso_auto_join_role) }));
    },
    async joinOrganization(organizationId, userId, role) {
      const r = await db
        .insertInto("members")
        .values({ organization_id: organizationId, user_id: userId, role, created_at: nowIso() })
        .onConflict((oc) => oc.columns(["organization_id", "user_id"]).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    async listSsoRequiringOrganizations(userId) {
      const rows = await db
        .selectFrom("members")
        .innerJoin("organizations", "organizations.id", "members.organization_id")
        .select("organizations.slug")
        .where("members.user_id", "=", userId)
        .where("organizations.require_sso", "=", dbBool(dialect, true))
        .orderBy("organizations.slug")
        .execute();
      return rows.map((r) => r.slug);
    },
    async userHasProviderAccount(userId, providerId) {
      const r = await db.selectFrom("accounts").select("id").where("user_id", "=", userId).where("provider_id", "=", providerId).executeTakeFirst();
      return r !== undefined;
    },
    async userHasPassword(userId) {
      const r = await db.selectFrom("accounts").select("id").where("user_id", "=", userId).where("provider_id", "=", "credential").executeTakeFirst();
      return r !== undefined;
    },
    async getSsoSettings() {
      const r = await db.selectFrom("sso_settings").selectAll().where("id", "=", 1).executeTakeFirst();
      return r ? { issuer: r.issuer, clientId: r.client_id, clientSecret: r.client_secret, name: r.name, updatedAt: r.updated_at } : null;
    },
    async setSsoSettings(s) {
      if (!s) {
        await db.deleteFrom("sso_settings").where("id", "=", 1).execute();
        return;
      }
      const row = { issuer: s.issuer, client_id: s.clientId, client_secret: s.clientSecret, name: s.name, updated_at: s.updatedAt };
      await db
        .insertInto("sso_settings")
        .values({ id: 1, ...row })
        .onConflict((oc) => oc.column("id").doUpdateSet(row))
        .execute();
    },
  };
}
