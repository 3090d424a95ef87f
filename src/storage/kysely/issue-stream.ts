// The issue stream's reads (storage/stream-ports.ts) on SQLite and PostgreSQL: each is one bounded query, and the
// stream's poll holds no transaction open between ticks.
import type { IssueStatus } from "../digest-ports";
import type { IssueStreamStore } from "../stream-ports";
import { applyIssueFilter, inProjects } from "./issue-filters";
import type { Ctx } from "./shared";

export function issueStreamStore({ db }: Ctx): IssueStreamStore {
  return {
    async newestIssueId(projectIds) {
      const r = await inProjects(db.selectFrom("issues"), projectIds)
        .select((eb) => eb.fn.max("issues.id").as("max"))
        .executeTakeFirst();
      return Number(r?.max ?? 0);
    },
    async issueStreamTick(projectIds, { filter, afterId, watchIds, cap }) {
      const fresh = await applyIssueFilter(inProjects(db.selectFrom("issues"), projectIds), filter)
        .select("issues.id")
        .where("issues.id", ">", afterId)
        .orderBy("issues.id", "desc")
        .limit(cap)
        .execute();
      const watched =
        watchIds.length === 0
          ? []
          : await inProjects(db.selectFrom("issues"), projectIds)
              .select(["issues.id", "issues.times_seen", "issues.user_count", "issues.last_seen", "issues.status"])
              .where("issues.id", "in", watchIds)
              .orderBy("issues.id")
              .execute();
      return {
        newIssues: fresh.length,
        newestId: fresh.length > 0 ? Number(fresh[0]!.id) : afterId,
        watched: watched.map((r) => ({
          id: Number(r.id),
          timesSeen: Number(r.times_seen),
          userCount: Number(r.user_count),
          lastSeen: r.last_seen,
          status: r.status as IssueStatus,
        })),
      };
    },
    async issueSearchValues(organizationId, projectIds, limit) {
      if (projectIds.length === 0) return { releases: [], environments: [] };
      const releases = await db
        .selectFrom("releases")
        .select("releases.version")
        .where("releases.organization_id", "=", organizationId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom("release_projects")
              .select("release_projects.release_id")
              .whereRef("release_projects.release_id", "=", "releases.id")
              .where("release_projects.project_id", "in", projectIds),
          ),
        )
        .orderBy("releases.created_at", "desc")
        .orderBy("releases.id", "desc")
        .limit(limit)
        .execute();
      const environments = await db
        .selectFrom("environments")
        .select("environments.name")
        .where("environments.organization_id", "=", organizationId)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom("environment_projects")
              .select("environment_projects.project_id")
              .whereRef("environment_projects.environment_id", "=", "environments.id")
              .where("environment_projects.project_id", "in", projectIds),
          ),
        )
        .orderBy("environments.name")
        .limit(limit)
        .execute();
      return { releases: releases.map((r) => r.version), environments: environments.map((r) => r.name) };
    },
  };
}
