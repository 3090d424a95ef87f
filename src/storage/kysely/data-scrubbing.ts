// Data scrubbing settings (scrubbing-ports.ts): one nullable JSON column on organizations and on projects (0025).
import type { ScrubbingSettingsStore, StoredScrubbing } from "../scrubbing-ports";
import type { Ctx } from "./shared";

export function scrubbingSettingsStore({ db }: Ctx): ScrubbingSettingsStore {
  return {
    async getDataScrubbing(owner) {
      const r =
        "organizationId" in owner
          ? await db.selectFrom("organizations").select("data_scrubbing").where("id", "=", owner.organizationId).executeTakeFirst()
          : await db.selectFrom("projects").select("data_scrubbing").where("id", "=", owner.projectId).executeTakeFirst();
      return r?.data_scrubbing ?? null;
    },
    async setDataScrubbing(owner, options) {
      if ("organizationId" in owner) await db.updateTable("organizations").set({ data_scrubbing: options }).where("id", "=", owner.organizationId).execute();
      else await db.updateTable("projects").set({ data_scrubbing: options }).where("id", "=", owner.projectId).execute();
    },
    async dataScrubbingOfProjects(projectIds) {
      const out = new Map<number, StoredScrubbing>();
      if (projectIds.length === 0) return out;
      const rows = await db
        .selectFrom("projects")
        .innerJoin("organizations", "organizations.id", "projects.organization_id")
        .select(["projects.id as id", "projects.data_scrubbing as project", "organizations.data_scrubbing as organization"])
        .where("projects.id", "in", [...projectIds])
        .execute();
      for (const r of rows) out.set(Number(r.id), { organization: r.organization, project: r.project });
      return out;
    },
  };
}
