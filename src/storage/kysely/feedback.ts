// User feedback (storage/feedback-ports.ts) for SQLite and PostgreSQL: rows written in the digest's transaction or
// the API's own, one per dedupe key (a feedback event once; a user report per event, the newest winning), linked to
// the associated event's issue when the event is stored; read with their project, issue and whether the event is kept.
import type { Kysely, Transaction } from "kysely";
import type { Feedback, FeedbackDetails, FeedbackStatus, FeedbackStore, FeedbackTx, NewFeedback, WrittenFeedback } from "../feedback-ports";
import { FEEDBACK_STATUSES } from "../feedback-ports";
import type { Database } from "../schema";
import { chunks } from "./batch-rows";
import type { Ctx } from "./shared";

const dedupeKey = (f: NewFeedback) => (f.source === "feedback" ? `feedback:${f.feedbackEventId ?? ""}` : `report:${f.associatedEventId ?? ""}`);

function readDetails(text: string): FeedbackDetails {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as FeedbackDetails) : {};
  } catch {
    return {};
  }
}

/** The associated event's issue, environment and release, if it is stored. */
async function associatedEvent(db: Kysely<Database>, projectId: number, eventId: string | null) {
  if (!eventId) return undefined;
  return db
    .selectFrom("events")
    .select(["issue_id", "environment", "release"])
    .where("project_id", "=", projectId)
    .where("event_id", "=", eventId)
    .executeTakeFirst();
}

/**
 * Inserts a row unless its key is there; a user report then replaces the earlier one's text. The insert that does
 * nothing on conflict tells, by returning a row or none, whether this very write made the row, also against another
 * node's digest writing the same key at once (PostgreSQL's unique index decides, not an earlier read).
 */
async function insertOne(db: Kysely<Database>, f: NewFeedback): Promise<WrittenFeedback> {
  const event = await associatedEvent(db, f.projectId, f.associatedEventId);
  const issueId = event?.issue_id ?? null;
  const associated = event ? { environment: event.environment, release: event.release } : null;
  const row = {
    project_id: f.projectId,
    dedupe_key: dedupeKey(f),
    source: f.source,
    feedback_event_id: f.feedbackEventId,
    associated_event_id: f.associatedEventId,
    issue_id: issueId,
    message: f.message,
    name: f.name,
    email: f.email,
    url: f.url,
    details: JSON.stringify(f.details),
    status: "new",
    assignee_user_id: null,
    received_at: f.receivedAt,
  };
  const inserted = await db
    .insertInto("user_feedback")
    .values(row)
    .onConflict((oc) => oc.columns(["project_id", "dedupe_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { id: Number(inserted.id), isNew: true, row: f, issueId, associated };
  const existing = await db
    .selectFrom("user_feedback")
    .select("id")
    .where("project_id", "=", f.projectId)
    .where("dedupe_key", "=", row.dedupe_key)
    .executeTakeFirstOrThrow();
  if (f.source !== "feedback")
    await db
      .updateTable("user_feedback")
      .set({ message: row.message, name: row.name, email: row.email, source: row.source, received_at: row.received_at })
      .where("id", "=", existing.id)
      .execute();
  return { id: Number(existing.id), isNew: false, row: f, issueId, associated };
}

export function feedbackTx(trx: Transaction<Database>): FeedbackTx {
  return {
    async insertFeedback(rows) {
      const out: WrittenFeedback[] = [];
      for (const f of rows) out.push(await insertOne(trx, f));
      return out;
    },
    async linkFeedback(links) {
      // One indexed read per project and chunk finds the few waiting rows; only those are updated.
      const byProject = new Map<number, Map<string, number>>();
      for (const l of links) {
        const m = byProject.get(l.projectId) ?? new Map<string, number>();
        m.set(l.eventId, l.issueId);
        byProject.set(l.projectId, m);
      }
      for (const [projectId, issueOf] of byProject) {
        for (const part of chunks([...issueOf.keys()])) {
          const waiting = await trx
            .selectFrom("user_feedback")
            .select(["id", "associated_event_id"])
            .where("project_id", "=", projectId)
            .where("associated_event_id", "in", part)
            .where("issue_id", "is", null)
            .execute();
          for (const w of waiting)
            await trx
              .updateTable("user_feedback")
              .set({ issue_id: issueOf.get(w.associated_event_id!)! })
              .where("id", "=", w.id)
              .execute();
        }
      }
    },
  };
}

function selectFeedback(db: Kysely<Database>) {
  return db
    .selectFrom("user_feedback as f")
    .innerJoin("projects as p", "p.id", "f.project_id")
    .leftJoin("issues as i", "i.id", "f.issue_id")
    .leftJoin("events as e", (j) => j.onRef("e.project_id", "=", "f.project_id").onRef("e.event_id", "=", "f.associated_event_id"))
    .select([
      "f.id",
      "f.project_id",
      "f.source",
      "f.feedback_event_id",
      "f.associated_event_id",
      "f.issue_id",
      "f.message",
      "f.name",
      "f.email",
      "f.url",
      "f.details",
      "f.status",
      "f.assignee_user_id",
      "f.received_at",
      "p.slug as project_slug",
      "i.short_id",
      "i.title as issue_title",
      "e.id as event_row",
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectFeedback>["executeTakeFirstOrThrow"]>>;

const toFeedback = (r: Row): Feedback => ({
  id: Number(r.id),
  projectId: r.project_id,
  projectSlug: r.project_slug,
  source: r.source as Feedback["source"],
  feedbackEventId: r.feedback_event_id,
  associatedEventId: r.associated_event_id,
  issueId: r.issue_id,
  issue: r.issue_id !== null && r.short_id !== null ? { id: r.issue_id, shortId: Number(r.short_id), title: r.issue_title ?? "" } : null,
  eventStored: r.event_row !== null,
  message: r.message,
  name: r.name,
  email: r.email,
  url: r.url,
  details: readDetails(r.details),
  status: (FEEDBACK_STATUSES as readonly string[]).includes(r.status) ? (r.status as FeedbackStatus) : "new",
  assigneeUserId: r.assignee_user_id,
  receivedAt: r.received_at,
});

export function feedbackStore({ db }: Ctx): FeedbackStore {
  const getFeedback: FeedbackStore["getFeedback"] = async (organizationId, id) => {
    const r = await selectFeedback(db).where("p.organization_id", "=", organizationId).where("f.id", "=", id).executeTakeFirst();
    return r ? toFeedback(r) : null;
  };
  return {
    getFeedback,
    async listFeedback({ organizationId, status, projectIds, limit, beforeId }) {
      let q = selectFeedback(db).where("p.organization_id", "=", organizationId);
      if (status) q = q.where("f.status", "=", status);
      if (projectIds) q = projectIds.length === 0 ? q.where("f.id", "<", 0) : q.where("f.project_id", "in", projectIds);
      if (beforeId) q = q.where("f.id", "<", beforeId);
      return (await q.orderBy("f.id", "desc").limit(limit).execute()).map(toFeedback);
    },
    async countFeedback(organizationId) {
      const rows = await db
        .selectFrom("user_feedback as f")
        .innerJoin("projects as p", "p.id", "f.project_id")
        .select(["f.status", (eb) => eb.fn.countAll<number | string>().as("n")])
        .where("p.organization_id", "=", organizationId)
        .groupBy("f.status")
        .execute();
      const out: Record<FeedbackStatus, number> = { new: 0, resolved: 0, spam: 0 };
      for (const r of rows) if ((FEEDBACK_STATUSES as readonly string[]).includes(r.status)) out[r.status as FeedbackStatus] = Number(r.n);
      return out;
    },
    async listIssueFeedback(issueId, limit) {
      return (await selectFeedback(db).where("f.issue_id", "=", issueId).where("f.status", "!=", "spam").orderBy("f.id", "desc").limit(limit).execute()).map(
        toFeedback,
      );
    },
    async updateFeedback(organizationId, id, change) {
      const found = await getFeedback(organizationId, id);
      if (!found) return null;
      const set: { status?: string; assignee_user_id?: string | null } = {};
      if (change.status !== undefined) set.status = change.status;
      if (change.assigneeUserId !== undefined) set.assignee_user_id = change.assigneeUserId;
      if (Object.keys(set).length > 0) await db.updateTable("user_feedback").set(set).where("id", "=", id).execute();
      return getFeedback(organizationId, id);
    },
  };
}
