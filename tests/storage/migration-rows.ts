// Rows the data-carrying migration tests start from, written with the columns the projects table has had since 0028
// (data_scrubbing), as the releases of that time wrote them.
import type { Kysely } from "kysely";
import type { Database } from "../../src/storage/schema";

/** An organization "o" and its project "p"; the project's id. */
export async function oldProject(k: Kysely<Database>, now: string): Promise<{ id: number }> {
  const org = await k
    .insertInto("organizations")
    .values({ slug: "o", name: "O", created_at: now, data_scrubbing: null })
    .returning("id")
    .executeTakeFirstOrThrow();
  return k
    .insertInto("projects")
    .values({
      organization_id: org.id,
      team_id: null,
      slug: "p",
      name: "P",
      platform: null,
      created_at: now,
      rate_limit_count: null,
      rate_limit_window: null,
      quotas: null,
      webhook_secret: null,
      retention_days: null,
      data_scrubbing: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

export { oldIssue } from "../helpers/issue-row";
