import type { IntakeStore } from "../ports";
import { type Ctx, toBool, toRateLimit } from "./shared";

export function intakeStore({ db }: Ctx): IntakeStore {
  return {
    async getIntakeKey(publicKey) {
      const r = await db
        .selectFrom("project_keys as k")
        .innerJoin("projects as p", "p.id", "k.project_id")
        .select(["k.id", "k.project_id", "k.is_active", "k.rate_limit_count", "k.rate_limit_window", "p.rate_limit_count as project_rate_limit_count", "p.rate_limit_window as project_rate_limit_window"])
        .where("k.public_key", "=", publicKey)
        .executeTakeFirst();
      if (!r) return null;
      return {
        keyId: r.id,
        projectId: r.project_id,
        isActive: toBool(r.is_active),
        keyRateLimit: toRateLimit(r.rate_limit_count, r.rate_limit_window),
        projectRateLimit: toRateLimit(r.project_rate_limit_count, r.project_rate_limit_window),
      };
    },
  };
}
