import { INTERNAL_PROJECT_SETTING } from "../migrations/0014-internal-project";
import type { IntakeStore, OrganizationQuotaStore, QuotaMap, RateLimit } from "../ports";
import { type Ctx, quotasColumn, toBool, toQuotas, toRateLimit } from "./shared";

/** A key's or project's quotas in one map, the error quota (its own columns) under "error". */
function quotaMap(errors: RateLimit | null, others: string | null): QuotaMap {
  return errors ? { ...toQuotas(others), error: errors } : toQuotas(others);
}

export function intakeStore({ db }: Ctx): IntakeStore {
  return {
    async getIntakeKey(publicKey) {
      const r = await db
        .selectFrom("project_keys as k")
        .innerJoin("projects as p", "p.id", "k.project_id")
        .select([
          "k.id",
          "k.project_id",
          "k.is_active",
          "k.rate_limit_count",
          "k.rate_limit_window",
          "k.quotas",
          "p.rate_limit_count as project_rate_limit_count",
          "p.rate_limit_window as project_rate_limit_window",
          "p.quotas as project_quotas",
          "p.organization_id",
        ])
        .innerJoin("organizations as o", "o.id", "p.organization_id")
        .select("o.quotas as organization_quotas")
        .select((eb) => eb.selectFrom("instance_settings").select("value").where("key", "=", INTERNAL_PROJECT_SETTING).as("internal_project"))
        .where("k.public_key", "=", publicKey)
        .executeTakeFirst();
      if (!r) return null;
      return {
        keyId: r.id,
        projectId: r.project_id,
        isActive: toBool(r.is_active),
        keyQuotas: quotaMap(toRateLimit(r.rate_limit_count, r.rate_limit_window), r.quotas),
        projectQuotas: quotaMap(toRateLimit(r.project_rate_limit_count, r.project_rate_limit_window), r.project_quotas),
        internal: r.internal_project === String(r.project_id),
        organizationId: r.organization_id,
        organizationQuotas: toQuotas(r.organization_quotas),
      };
    },
  };
}

export function organizationQuotaStore({ db }: Ctx): OrganizationQuotaStore {
  return {
    async organizationQuotas(organizationId) {
      const r = await db.selectFrom("organizations").select("quotas").where("id", "=", organizationId).executeTakeFirst();
      return toQuotas(r?.quotas ?? null);
    },
    async setOrganizationQuotas(organizationId, quotas) {
      await db.updateTable("organizations").set(quotasColumn(quotas)).where("id", "=", organizationId).execute();
    },
  };
}
