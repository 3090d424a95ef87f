// The release pages' reads (storage/dashboard-ports.ts) on SQLite and PostgreSQL: a release's sessions per hour, its
// events and new issues (indexes of migration 0009), and the environment names of an organization or its projects.
import type { ReleaseDetailStore } from "../dashboard-ports";
import type { Ctx } from "./shared";

const n = (v: unknown) => Number(v ?? 0);

export function releaseDetailStore({ db }: Ctx): ReleaseDetailStore {
  return {
    async releaseSessionSeries(projectIds, version, { environments, sinceHour }) {
      if (projectIds.length === 0) return [];
      let q = db
        .selectFrom("release_session_counts")
        .select((eb) => [
          "hour",
          eb.fn.sum<number | string>("started").as("sessions"),
          eb.fn.sum<number | string>("errored").as("errored"),
          eb.fn.sum<number | string>("crashed").as("crashed"),
          eb.fn.sum<number | string>("abnormal").as("abnormal"),
        ])
        .where("project_id", "in", projectIds)
        .where("release", "=", version)
        .where("hour", ">=", sinceHour)
        .groupBy("hour")
        .orderBy("hour");
      if (environments && environments.length > 0) q = q.where("environment", "in", environments);
      return (await q.execute()).map((r) => ({
        hour: r.hour,
        sessions: n(r.sessions),
        erroredAll: n(r.errored),
        crashed: n(r.crashed),
        abnormal: n(r.abnormal),
      }));
    },

    async releaseEventCount(projectIds, version, environments) {
      if (projectIds.length === 0) return 0;
      let q = db
        .selectFrom("events")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where("project_id", "in", projectIds)
        .where("release", "=", version);
      if (environments && environments.length > 0) q = q.where("environment", "in", environments);
      return n((await q.executeTakeFirstOrThrow()).n);
    },

    async releaseNewIssues(projectIds, version, limit) {
      if (projectIds.length === 0) return [];
      const rows = await db
        .selectFrom("issues")
        .select(["id", "project_id", "short_id", "title", "culprit", "level", "times_seen", "first_seen", "last_seen"])
        .where("project_id", "in", projectIds)
        .where("first_release", "=", version)
        .orderBy("last_seen", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        projectId: r.project_id,
        shortId: r.short_id,
        title: r.title,
        culprit: r.culprit,
        level: r.level,
        timesSeen: n(r.times_seen),
        firstSeen: r.first_seen,
        lastSeen: r.last_seen,
      }));
    },

    async listEnvironments(organizationId, projectIds) {
      if (projectIds && projectIds.length === 0) return [];
      let q = db
        .selectFrom("environments")
        .select("environments.name")
        .where("environments.organization_id", "=", organizationId)
        .distinct()
        .orderBy("environments.name");
      if (projectIds) {
        q = q.where("environments.id", "in", db.selectFrom("environment_projects").select("environment_id").where("project_id", "in", projectIds));
      }
      return (await q.execute()).map((r) => r.name);
    },
  };
}
