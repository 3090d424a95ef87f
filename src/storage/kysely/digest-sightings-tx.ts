// The digest's sightings inside its transaction (storage/digest-ports.ts SightingTx), for SQLite and PostgreSQL: an
// issue's tag values, the releases and environments events name, outcome counts, and when releases were first seen.
// Rows of a batch are summed by key first, so each key is one upsert that adds.
import { type RawBuilder, type Transaction, sql } from "kysely";
import type { Dialect } from "../db";
import type { EnvironmentSighting, IssueTagSighting, ReleaseSighting, SightingTx } from "../digest-ports";
import type { OutcomeIncrement } from "../ports";
import type { Database } from "../schema";
import { chunks, keepFirst, maxIso, minIso, projectVersionKey, scalarMinMax, sumBy } from "./batch-rows";
import { nowIso } from "./shared";

// The batch's summing keys and merges, at module level (batch-rows.ts sumBy says why).
const tagKey = (r: IssueTagSighting) => `${r.issueId}\u0000${r.key}\u0000${r.value}`;
function addTag(into: IssueTagSighting, from: IssueTagSighting): void {
  into.count += from.count;
  into.firstSeen = minIso(into.firstSeen, from.firstSeen);
  into.lastSeen = maxIso(into.lastSeen, from.lastSeen);
}
const tagRow = (r: IssueTagSighting) => ({
  issue_id: r.issueId,
  key: r.key,
  value: r.value,
  times_seen: r.count,
  first_seen: r.firstSeen,
  last_seen: r.lastSeen,
});
function addRelease(into: ReleaseSighting, from: ReleaseSighting): void {
  into.newIssues += from.newIssues;
  into.firstEvent = minIso(into.firstEvent, from.firstEvent);
  into.lastEvent = maxIso(into.lastEvent, from.lastEvent);
}
const environmentKey = (r: EnvironmentSighting) => `${r.projectId}\u0000${r.name}`;
const outcomeKey = (o: OutcomeIncrement) => `${o.projectId}\u0000${o.hour}\u0000${o.category}\u0000${o.outcome}\u0000${o.reason}`;
const addOutcome = (into: OutcomeIncrement, from: OutcomeIncrement) => void (into.quantity += from.quantity);
const hasQuantity = (o: OutcomeIncrement) => o.quantity > 0;

export function sightingTx(trx: Transaction<Database>, dialect: Dialect): SightingTx {
  const { least, greatest } = scalarMinMax(dialect);
  const col = (table: string, name: string) => sql.ref(`${table}.${name}`);

  async function organizationIds(projectIds: number[]): Promise<Map<number, number>> {
    if (projectIds.length === 0) return new Map();
    const rows = await trx.selectFrom("projects").select(["id", "organization_id"]).where("id", "in", projectIds).execute();
    return new Map(rows.map((r) => [r.id, r.organization_id]));
  }

  return {
    async sightTags(rows) {
      const merged = sumBy(rows, tagKey, addTag);
      for (const part of chunks(merged)) {
        await trx
          .insertInto("issue_tags")
          .values(part.map(tagRow))
          .onConflict((oc) =>
            oc.columns(["issue_id", "key", "value"]).doUpdateSet((eb) => ({
              times_seen: eb("issue_tags.times_seen", "+", eb.ref("excluded.times_seen")),
              last_seen: greatest(col("issue_tags", "last_seen"), sql.ref("excluded.last_seen")) as RawBuilder<string>,
            })),
          )
          .execute();
      }
    },

    async sightReleases(rows) {
      const merged = sumBy(rows, projectVersionKey, addRelease);
      if (merged.length === 0) return;
      const orgs = await organizationIds([...new Set(merged.map((r) => r.projectId))]);
      const now = nowIso();
      for (const r of merged) {
        const organizationId = orgs.get(r.projectId);
        if (organizationId === undefined) continue;
        await trx
          .insertInto("releases")
          .values({ organization_id: organizationId, version: r.version, created_at: now, released_at: null, ref: null, url: null })
          .onConflict((oc) => oc.columns(["organization_id", "version"]).doNothing())
          .execute();
        const release = await trx
          .selectFrom("releases")
          .select("id")
          .where("organization_id", "=", organizationId)
          .where("version", "=", r.version)
          .executeTakeFirstOrThrow();
        await trx
          .insertInto("release_projects")
          .values({ release_id: release.id, project_id: r.projectId, new_issues: r.newIssues, first_event: r.firstEvent, last_event: r.lastEvent })
          .onConflict((oc) =>
            oc.columns(["release_id", "project_id"]).doUpdateSet((eb) => ({
              new_issues: eb("release_projects.new_issues", "+", eb.ref("excluded.new_issues")),
              // A row the API or sessions made has no events yet (null): SQLite's min() and max() would keep the null.
              first_event: least(
                sql`coalesce(${col("release_projects", "first_event")}, excluded.first_event)`,
                sql.ref("excluded.first_event"),
              ) as RawBuilder<string>,
              last_event: greatest(
                sql`coalesce(${col("release_projects", "last_event")}, excluded.last_event)`,
                sql.ref("excluded.last_event"),
              ) as RawBuilder<string>,
            })),
          )
          .execute();
      }
    },

    async sightEnvironments(rows) {
      const unique = sumBy(rows, environmentKey, keepFirst);
      if (unique.length === 0) return;
      const orgs = await organizationIds([...new Set(unique.map((r) => r.projectId))]);
      const now = nowIso();
      for (const r of unique) {
        const organizationId = orgs.get(r.projectId);
        if (organizationId === undefined) continue;
        await trx
          .insertInto("environments")
          .values({ organization_id: organizationId, name: r.name, created_at: now })
          .onConflict((oc) => oc.columns(["organization_id", "name"]).doNothing())
          .execute();
        const env = await trx
          .selectFrom("environments")
          .select("id")
          .where("organization_id", "=", organizationId)
          .where("name", "=", r.name)
          .executeTakeFirstOrThrow();
        await trx
          .insertInto("environment_projects")
          .values({ environment_id: env.id, project_id: r.projectId })
          .onConflict((oc) => oc.columns(["environment_id", "project_id"]).doNothing())
          .execute();
      }
    },

    async addOutcomes(increments) {
      const summed = sumBy(increments.filter(hasQuantity), outcomeKey, addOutcome);
      for (const part of chunks(summed)) {
        await trx
          .insertInto("outcomes")
          .values(
            part.map((o) => ({ project_id: o.projectId, hour: o.hour, category: o.category, outcome: o.outcome, reason: o.reason, quantity: o.quantity })),
          )
          .onConflict((oc) =>
            oc
              .columns(["project_id", "hour", "category", "outcome", "reason"])
              .doUpdateSet((eb) => ({ quantity: eb("outcomes.quantity", "+", eb.ref("excluded.quantity")) })),
          )
          .execute();
      }
    },

    async releaseDates(projectId, versions) {
      const out = new Map<string, string>();
      if (versions.length === 0) return out;
      const rows = await trx
        .selectFrom("releases")
        .innerJoin("projects", "projects.organization_id", "releases.organization_id")
        .select(["releases.version", "releases.created_at"])
        .where("projects.id", "=", projectId)
        .where("releases.version", "in", [...new Set(versions)])
        .execute();
      for (const r of rows) out.set(r.version, r.created_at);
      return out;
    },
  };
}
