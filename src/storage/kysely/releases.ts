// Releases (storage/release-ports.ts) on SQLite and PostgreSQL. Lists are keyset pages on (created_at, id), newest
// first; release health sums the digest's hourly session counts and counts distinct users.
import { sql } from "kysely";
import type { Release, ReleaseFields, ReleaseHealthRow, ReleaseStore } from "../release-ports";
import type { ReleasesTable } from "../schema";
import { type Ctx, decodeCursor, toPage } from "./shared";

type ReleaseRow = Omit<ReleasesTable, "id" | "status"> & { id: number; status: string };

const columns = (f: ReleaseFields) => ({
  ...(f.releasedAt !== undefined ? { released_at: f.releasedAt } : {}),
  ...(f.startedAt !== undefined ? { started_at: f.startedAt } : {}),
  ...(f.ref !== undefined ? { ref: f.ref } : {}),
  ...(f.url !== undefined ? { url: f.url } : {}),
  ...(f.refs !== undefined ? { refs: f.refs } : {}),
  ...(f.commits !== undefined ? { commits: f.commits } : {}),
  ...(f.status !== undefined ? { status: f.status } : {}),
});

export function releaseStore({ db }: Ctx): ReleaseStore {
  async function withProjects(rows: ReleaseRow[]): Promise<Release[]> {
    if (rows.length === 0) return [];
    const projects = await db
      .selectFrom("release_projects")
      .selectAll()
      .where(
        "release_id",
        "in",
        rows.map((r) => r.id),
      )
      .orderBy("project_id")
      .execute();
    return rows.map((r) => ({
      id: r.id,
      organizationId: r.organization_id,
      version: r.version,
      createdAt: r.created_at,
      releasedAt: r.released_at,
      startedAt: r.started_at,
      ref: r.ref,
      url: r.url,
      refs: r.refs,
      commits: r.commits,
      status: r.status === "archived" ? "archived" : "open",
      projects: projects
        .filter((p) => p.release_id === r.id)
        .map((p) => ({ projectId: p.project_id, newIssues: p.new_issues, firstEvent: p.first_event, lastEvent: p.last_event })),
    }));
  }

  async function addProjects(releaseId: number, projectIds: number[]): Promise<void> {
    for (const projectId of new Set(projectIds)) {
      await db
        .insertInto("release_projects")
        .values({ release_id: releaseId, project_id: projectId, new_issues: 0, first_event: null, last_event: null })
        .onConflict((oc) => oc.columns(["release_id", "project_id"]).doNothing())
        .execute();
    }
  }

  const store: ReleaseStore = {
    async getRelease(organizationId, version) {
      const row = await db.selectFrom("releases").selectAll().where("organization_id", "=", organizationId).where("version", "=", version).executeTakeFirst();
      return row ? ((await withProjects([row]))[0] ?? null) : null;
    },

    async listReleases({ organizationId, projectIds, query, page }) {
      let q = db.selectFrom("releases").selectAll().where("organization_id", "=", organizationId);
      if (projectIds) {
        if (projectIds.length === 0) return { items: [], nextCursor: null };
        q = q.where("id", "in", db.selectFrom("release_projects").select("release_id").where("project_id", "in", projectIds));
      }
      if (query) {
        const pattern = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        // SQLite's lower() folds ASCII letters only (PostgreSQL's folds all): there a version's non-ASCII capitals never match.
        q = q.where(sql<boolean>`lower(version) like ${pattern} escape '\\'`);
      }
      const cursor = decodeCursor(page.cursor);
      if (cursor) {
        const [at, id] = cursor.split("|");
        q = q.where((eb) => eb.or([eb("created_at", "<", at!), eb.and([eb("created_at", "=", at!), eb("id", "<", Number(id))])]));
      }
      const rows = await q
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(page.limit + 1)
        .execute();
      return toPage(await withProjects(rows), page, (r) => `${r.createdAt}|${r.id}`);
    },

    async upsertRelease({ organizationId, version, projectIds, createdAt, ...fields }) {
      const inserted = await db
        .insertInto("releases")
        .values({ organization_id: organizationId, version, created_at: createdAt, ...columns(fields) })
        .onConflict((oc) => oc.columns(["organization_id", "version"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      const release = await db
        .selectFrom("releases")
        .select("id")
        .where("organization_id", "=", organizationId)
        .where("version", "=", version)
        .executeTakeFirstOrThrow();
      await addProjects(release.id, projectIds);
      return { release: (await store.getRelease(organizationId, version))!, created: inserted !== undefined };
    },

    async updateRelease(releaseId, fields, addProjectIds) {
      const set = columns(fields);
      if (Object.keys(set).length > 0) await db.updateTable("releases").set(set).where("id", "=", releaseId).execute();
      await addProjects(releaseId, addProjectIds);
    },

    async deleteRelease(releaseId) {
      await db.deleteFrom("releases").where("id", "=", releaseId).execute();
    },

    async previousReleaseWithCommits({ organizationId, createdAt, id }) {
      const row = await db
        .selectFrom("releases")
        .selectAll()
        .where("organization_id", "=", organizationId)
        .where((eb) => eb.or([eb("refs", "is not", null), eb("commits", "is not", null)]))
        .where((eb) => eb.or([eb("created_at", "<", createdAt), eb.and([eb("created_at", "=", createdAt), eb("id", "<", id)])]))
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      return row ? ((await withProjects([row]))[0] ?? null) : null;
    },

    async releaseHealth(projectIds, versions, { environments, since24h }) {
      if (projectIds.length === 0 || versions.length === 0) return [];
      const envs = environments && environments.length > 0 ? environments : null;
      const n = (v: unknown) => Number(v ?? 0);
      let counts = db
        .selectFrom("release_session_counts")
        .select((eb) => [
          "project_id",
          "release",
          eb.fn.sum<number>("started").as("sessions"),
          eb.fn.sum<number>("errored").as("errored"),
          eb.fn.sum<number>("crashed").as("crashed"),
          eb.fn.sum<number>("abnormal").as("abnormal"),
          eb.fn.sum<number>(eb.case().when("hour", ">=", since24h).then(eb.ref("started")).else(0).end()).as("sessions_24h"),
        ])
        .where("project_id", "in", projectIds)
        .where("release", "in", versions)
        .groupBy(["project_id", "release"]);
      if (envs) counts = counts.where("environment", "in", envs);
      // Distinct users across environments: one user seen in two environments is one user.
      let users = db
        .selectFrom("release_session_users")
        .select((eb) => [
          "project_id",
          "release",
          eb.fn.count<number>("distinct_id").distinct().as("users"),
          sql<number>`count(distinct case when ${eb.ref("crashed")} then distinct_id end)`.as("users_crashed"),
          sql<number>`count(distinct case when ${eb.ref("last_seen")} >= ${since24h} then distinct_id end)`.as("users_24h"),
        ])
        .where("project_id", "in", projectIds)
        .where("release", "in", versions)
        .groupBy(["project_id", "release"]);
      if (envs) users = users.where("environment", "in", envs);
      const out = new Map<string, ReleaseHealthRow>();
      const row = (projectId: number, version: string) => {
        const key = `${projectId}\u0000${version}`;
        let r = out.get(key);
        if (!r) {
          r = {
            projectId,
            version,
            sessions: 0,
            sessionsErroredAll: 0,
            sessionsCrashed: 0,
            sessionsAbnormal: 0,
            users: 0,
            usersCrashed: 0,
            sessions24h: 0,
            users24h: 0,
          };
          out.set(key, r);
        }
        return r;
      };
      for (const c of await counts.execute()) {
        Object.assign(row(c.project_id, c.release), {
          sessions: n(c.sessions),
          sessionsErroredAll: n(c.errored),
          sessionsCrashed: n(c.crashed),
          sessionsAbnormal: n(c.abnormal),
          sessions24h: n(c.sessions_24h),
        });
      }
      for (const u of await users.execute())
        Object.assign(row(u.project_id, u.release), { users: n(u.users), usersCrashed: n(u.users_crashed), users24h: n(u.users_24h) });
      return [...out.values()];
    },
  };
  return store;
}
