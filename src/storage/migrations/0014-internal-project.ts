// The internal project: where Faultline reports its own errors and page loads (self-monitoring). As Sentry
// self-hosted keeps an "internal" project in the instance's own organization, Faultline creates an organization of
// its own with no members (install superusers see every organization, so it is visible to them alone) holding one
// project and one DSN key, and names the project in `instance_settings` ("internal_project" → its id), which is how
// the core finds it (core/internal-project.ts). A separate organization leaves the first user's organization as
// setup made it. Created here, under the migrator's lock, so two processes starting at once cannot make two.
import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Dialect } from "../db";
import { dialectTypes } from "./types";

export const INTERNAL_PROJECT_SETTING = "internal_project";

type Row = Record<string, unknown>;
// Frozen with this migration: the tables as they are at 0014, typed loosely on purpose.
type Untyped = Kysely<Record<string, Row>>;

export function internalProject(dialect: Dialect) {
  const t = dialectTypes(dialect);
  return {
    async up(kysely: Kysely<unknown>): Promise<void> {
      const db = kysely as unknown as Untyped;
      const existing = await db.selectFrom("instance_settings").select("value").where("key", "=", INTERNAL_PROJECT_SETTING).executeTakeFirst();
      if (existing) return;
      const now = new Date().toISOString();
      // An install upgraded from before 0014 may have an organization with the wanted slug already.
      const taken = new Set(
        (await db.selectFrom("organizations").select("slug").where("slug", "like", "faultline-internal%").execute()).map((r) => String(r.slug)),
      );
      let slug = "faultline-internal";
      for (let n = 2; taken.has(slug); n++) slug = `faultline-internal-${n}`;
      const org = await db
        .insertInto("organizations")
        .values({ slug, name: "Faultline (internal)", created_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      const project = await db
        .insertInto("projects")
        .values({ organization_id: org.id, team_id: null, slug: "faultline", name: "Faultline", platform: "javascript-nextjs", created_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("project_keys")
        .values({
          project_id: project.id,
          label: "Self-monitoring",
          public_key: randomBytes(16).toString("hex"),
          secret_key: randomBytes(16).toString("hex"),
          is_active: t.true,
          created_at: now,
        })
        .execute();
      await db
        .insertInto("instance_settings")
        .values({ key: INTERNAL_PROJECT_SETTING, value: String(project.id), created_at: now })
        .execute();
    },
  };
}
