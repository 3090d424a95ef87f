// A person's data (issue 18): organization owners and superusers find the events of a user (by id, e-mail,
// username or IP address, exactly, as Sentry's user search) in every project of the organization, export them as
// one JSON file, and erase them with what they were counted in (storage/user-data-ports.ts). Issues keep their
// totals (times seen, hourly counts); their user counts and tag values lose the person. Each erasure is recorded in
// the organization's audit trail (core/audit.ts, event personal-data.erase) with who did it, the field, a SHA-256 of
// the value (not the value) and the counts.
import { createHash } from "node:crypto";
import { z } from "zod";
import { PERSONAL_DATA_LIMITS } from "../config/limits";
import { issueTags, userKey } from "../digest/event-facts";
import type { Project } from "../storage/ports";
import { audit } from "./audit";
import { type ErasureCounts, type EventFacts, USER_FIELDS, type UserEventMatch, type UserField } from "../storage/user-data-ports";
import { requireOrg } from "./access";
import { actingUser, type CoreContext } from "./context";
import { hasControlCharacters, parseInput } from "./schemas";

export const PERSON_FIELDS = ["any", ...USER_FIELDS] as const;
export type PersonField = (typeof PERSON_FIELDS)[number];

export const personSearchSchema = z.object({
  field: z.enum(PERSON_FIELDS, { error: `Field must be one of ${PERSON_FIELDS.join(", ")}` }).default("any"),
  value: z
    .string({ error: "Enter a value to search for" })
    .max(PERSONAL_DATA_LIMITS.maxValueLength, `At most ${PERSONAL_DATA_LIMITS.maxValueLength} characters`)
    .refine((s) => s.trim().length > 0, "Enter a value to search for")
    .refine((s) => !hasControlCharacters(s), "The value cannot contain control characters"),
});
export type PersonSearch = z.output<typeof personSearchSchema>;

export type PersonMatch = UserEventMatch & { projectSlug: string; projectName: string };

const fieldsOf = (field: PersonField): readonly UserField[] => (field === "any" ? USER_FIELDS : [field]);

/** The facts of a stored event the erasure takes back: computed as the digest computed them. */
const eventFacts: EventFacts = (data) => {
  const event = JSON.parse(data) as Record<string, unknown>;
  const key = userKey(event);
  return { userKey: key, tags: issueTags(event, key) };
};

async function organizationProjects(ctx: CoreContext, organizationId: number): Promise<Project[]> {
  const out: Project[] = [];
  let cursor: string | null = null;
  do {
    const page = await ctx.store.listProjects({ scope: { organizationIds: [organizationId] }, page: { limit: 500, cursor } });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

async function prepare(ctx: CoreContext, orgSlug: string, input: unknown) {
  const access = await requireOrg(ctx, orgSlug, "privacy:manage");
  const search = parseInput(personSearchSchema, input);
  const projects = await organizationProjects(ctx, access.org.id);
  return { access, search, projects, fields: fieldsOf(search.field) };
}

/** The newest events of the person in the organization (PERSONAL_DATA_LIMITS.listed at most), with their project. */
export async function findPersonEvents(
  ctx: CoreContext,
  orgSlug: string,
  input: unknown,
): Promise<{ search: PersonSearch; matches: PersonMatch[]; more: boolean }> {
  const { search, projects, fields } = await prepare(ctx, orgSlug, input);
  const byId = new Map(projects.map((p) => [p.id, p]));
  const found = await ctx.store.findUserEvents([...byId.keys()], fields, search.value, PERSONAL_DATA_LIMITS.listed + 1);
  const matches = found
    .slice(0, PERSONAL_DATA_LIMITS.listed)
    .map((m) => ({ ...m, projectSlug: byId.get(m.projectId)!.slug, projectName: byId.get(m.projectId)!.name }));
  return { search, matches, more: found.length > PERSONAL_DATA_LIMITS.listed };
}

/**
 * The export as JSON text in pieces: authorization and validation happen before this returns, the events are read
 * PERSONAL_DATA_LIMITS.exportSlice at a time while the pieces are taken (at most exportEvents events).
 */
export async function exportPersonData(ctx: CoreContext, orgSlug: string, input: unknown): Promise<{ filename: string; chunks: AsyncGenerator<string> }> {
  const { access, search, projects, fields } = await prepare(ctx, orgSlug, input);
  const byId = new Map(projects.map((p) => [p.id, p]));
  const matches = await ctx.store.findUserEvents([...byId.keys()], fields, search.value, PERSONAL_DATA_LIMITS.exportEvents);
  async function* chunks(): AsyncGenerator<string> {
    const head = {
      organization: access.org.slug,
      field: search.field,
      value: search.value,
      exportedAt: new Date().toISOString(),
      truncated: matches.length >= PERSONAL_DATA_LIMITS.exportEvents,
    };
    yield `${JSON.stringify(head).slice(0, -1)},"events":[`;
    let first = true;
    for (let i = 0; i < matches.length; i += PERSONAL_DATA_LIMITS.exportSlice) {
      const slice = matches.slice(i, i + PERSONAL_DATA_LIMITS.exportSlice);
      const data = new Map<string, string>();
      for (const projectId of new Set(slice.map((m) => m.projectId))) {
        const ids = slice.filter((m) => m.projectId === projectId).map((m) => m.eventId);
        for (const [eventId, json] of await ctx.store.eventDataOf(projectId, ids)) data.set(`${projectId}:${eventId}`, json);
      }
      let piece = "";
      for (const m of slice) {
        const json = data.get(`${m.projectId}:${m.eventId}`);
        if (json === undefined) continue;
        const meta = JSON.stringify({ project: byId.get(m.projectId)!.slug, eventId: m.eventId, type: m.type, receivedAt: m.receivedAt, matched: m.fields });
        piece += `${first ? "" : ","}${meta.slice(0, -1)},"event":${json}}`;
        first = false;
      }
      if (piece) yield piece;
    }
    // The user feedback erasure would take with them: about these events, or from the searched address (issue 19).
    yield '],"feedback":[';
    first = true;
    const email = fields.includes("email") ? search.value : null;
    for (const project of projects) {
      const eventIds = matches.filter((m) => m.projectId === project.id).map((m) => m.eventId);
      if (eventIds.length === 0 && email === null) continue;
      const rows = await ctx.store.feedbackOf(project.id, eventIds, email, PERSONAL_DATA_LIMITS.exportFeedbackPerProject);
      if (rows.length === 0) continue;
      const items = rows.map(({ id: _id, ...f }) => JSON.stringify({ project: project.slug, ...f }));
      yield `${first ? "" : ","}${items.join(",")}`;
      first = false;
    }
    yield "]}";
  }
  return { filename: `personal-data-${access.org.slug}-${search.field}.json`, chunks: chunks() };
}

export type ErasureResult = { totals: ErasureCounts; projects: { slug: string; name: string; counts: ErasureCounts }[]; more: boolean };

/**
 * Erases the person's events in every project of the organization, a transaction per project (at most
 * eraseEventsPerProject events each: `more` says a project had more, to erase again), and records the erasure.
 */
export async function erasePersonData(ctx: CoreContext, orgSlug: string, input: unknown): Promise<ErasureResult> {
  const { access, search, projects, fields } = await prepare(ctx, orgSlug, input);
  // A person erases data, never an organization token.
  actingUser(ctx);
  const totals: ErasureCounts = { events: 0, attachments: 0, tagValues: 0, users: 0, feedback: 0 };
  const touched: ErasureResult["projects"] = [];
  let more = false;
  for (const p of projects) {
    const counts = await ctx.store.eraseUserEvents(p.id, fields, search.value, eventFacts, PERSONAL_DATA_LIMITS.eraseEventsPerProject);
    if (counts.events === 0 && counts.attachments === 0 && counts.feedback === 0) continue;
    if (counts.events >= PERSONAL_DATA_LIMITS.eraseEventsPerProject) more = true;
    touched.push({ slug: p.slug, name: p.name, counts });
    for (const k of Object.keys(totals) as (keyof ErasureCounts)[]) totals[k] += counts[k];
  }
  // The person erased is not named again in the trail: only which field matched and a SHA-256 of the value.
  await audit(ctx, {
    organizationId: access.org.id,
    event: "personal-data.erase",
    note: `erased the events of a person (by ${search.field})`,
    data: { field: search.field, valueSha256: createHash("sha256").update(search.value).digest("hex"), counts: { ...totals, projects: touched.length } },
  });
  return { totals, projects: touched, more };
}

export type ErasureRecord = { id: number; actor: string; field: string; counts: ErasureCounts & { projects: number }; createdAt: string };

/** The organization's latest erasures (who, which field, what was deleted), from its audit trail, for its owners and superusers. */
export async function listErasures(ctx: CoreContext, orgSlug: string, limit = 20): Promise<ErasureRecord[]> {
  const access = await requireOrg(ctx, orgSlug, "privacy:manage");
  const rows = await ctx.store.listAudit({ organizationId: access.org.id, events: ["personal-data.erase"], limit });
  return rows.map((r) => {
    const data = JSON.parse(r.data) as { field?: string; counts?: Partial<ErasureRecord["counts"]> };
    const counts = { events: 0, attachments: 0, tagValues: 0, users: 0, feedback: 0, projects: 0, ...data.counts };
    return { id: r.id, actor: r.actorLabel, field: data.field ?? "—", counts, createdAt: r.createdAt };
  });
}
