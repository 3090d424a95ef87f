// Quota counts and job claims shared by several nodes (storage/cluster-ports.ts, migration 0026), for SQLite and
// PostgreSQL alike: upserts that add, and a claim that an upsert takes only from nobody or from an expired holder.
import type { ClusterStore, QuotaTotal } from "../cluster-ports";
import { chunks } from "./batch-rows";
import type { Ctx } from "./shared";

export function clusterStore({ db }: Ctx): ClusterStore {
  return {
    async addQuotaCounts(deltas) {
      const out: QuotaTotal[] = [];
      // In key order: two nodes adding to the same windows lock them in one order.
      const sorted = [...deltas].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.windowStart - b.windowStart));
      for (const part of chunks(sorted)) {
        const rows = await db
          .insertInto("quota_counts")
          .values(part.map((d) => ({ name: d.name, window_start: d.windowStart, expires_at: d.expiresAt, count: d.delta })))
          .onConflict((oc) => oc.columns(["name", "window_start"]).doUpdateSet((eb) => ({ count: eb("quota_counts.count", "+", eb.ref("excluded.count")) })))
          .returning(["name", "window_start", "count"])
          .execute();
        for (const r of rows) out.push({ name: r.name, windowStart: Number(r.window_start), count: Number(r.count) });
      }
      return out;
    },

    async pruneQuotaCounts(now, limit) {
      const rows = await db.selectFrom("quota_counts").select(["name", "window_start"]).where("expires_at", "<", now).limit(limit).execute();
      let deleted = 0;
      for (const r of rows)
        deleted += Number(
          (await db.deleteFrom("quota_counts").where("name", "=", r.name).where("window_start", "=", r.window_start).executeTakeFirst()).numDeletedRows,
        );
      return deleted;
    },

    async claimJob(name, holder, now, until) {
      const row = await db
        .insertInto("job_claims")
        .values({ name, claimed_until: until, claimed_by: holder })
        .onConflict((oc) =>
          oc
            .column("name")
            .doUpdateSet({ claimed_until: until, claimed_by: holder })
            .where((eb) => eb.or([eb("job_claims.claimed_until", "<=", now), eb("job_claims.claimed_by", "=", holder)])),
        )
        .returning("name")
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
