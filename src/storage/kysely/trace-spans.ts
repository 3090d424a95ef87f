// A trace's child spans of transaction events, read from the events. The digest stores a transaction event's segment
// span as a row of spans and its child spans only in the event's stored JSON (digest/spans.ts, ChildSpans): the trace
// view expands them here, with the digest's own function, so that a child reads as it would have been stored. Rows
// written before that (a child span row per child) are kept: a child already read as a row is not added twice.
import { EventDataError, decodeEventData } from "../event-codec";
import type { TraceSpan } from "../span-ports";
import type { Database } from "../schema";
import type { Kysely } from "kysely";
import { transactionSpans } from "../../digest/spans";
import { chunks } from "./batch-rows";

/** A segment span of the trace as read, with its arrival (the same as its transaction event's). */
export type TraceRow = TraceSpan & { receivedAt: string };

/**
 * `rows` (by start) with the child spans of their transaction events in `traceId`, by start, at most `limit`. A child
 * has no row: its id is negative, unique within the result. Expansion stops once `limit` children are found, so a
 * trace of many large transactions costs at most that many spans more than its rows.
 */
export async function withEventChildren(db: Kysely<Database>, rows: TraceRow[], traceId: string, limit: number): Promise<TraceSpan[]> {
  const segments = rows.filter((r) => r.isSegment && r.eventId !== null);
  const spans: TraceSpan[] = rows.map(({ receivedAt: _, ...span }) => span);
  if (segments.length === 0) return spans;
  const seen = new Set(rows.map((r) => `${r.projectId}:${r.spanId}`));
  const children: TraceSpan[] = [];
  // The events are read a statement's worth at a time, by their segments' start, until enough children are found.
  for (const part of chunks(segments)) {
    if (children.length >= limit) break;
    const data = await eventData(db, part);
    for (const segment of part) {
      const event = data.get(`${segment.projectId}:${segment.eventId}`);
      if (event === undefined) continue;
      const common = { projectId: segment.projectId, environment: segment.environment, release: segment.release, receivedAt: segment.receivedAt };
      for (const child of transactionSpans(event, segment.eventId!, common, "all").spans) {
        if (child.isSegment || child.traceId !== traceId || seen.has(`${child.projectId}:${child.spanId}`)) continue;
        seen.add(`${child.projectId}:${child.spanId}`);
        const { receivedAt: _, ...span } = child;
        children.push({ ...span, id: -(children.length + 1), projectSlug: segment.projectSlug });
      }
    }
  }
  // Rows first where starts are equal (a stable sort of rows, then children): rows keep their order by id.
  return [...spans, ...children].sort((a, b) => (a.startTime < b.startTime ? -1 : a.startTime > b.startTime ? 1 : 0)).slice(0, limit);
}

/**
 * The segments' transaction events (at most a statement's worth), parsed, by "projectId:eventId". One whose stored data
 * does not decode (damaged on disk) is left out: its transaction shows without children, and the rest of the trace
 * still shows.
 */
async function eventData(db: Kysely<Database>, segments: TraceRow[]): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  const byProject = new Map<number, TraceRow[]>();
  for (const s of segments) {
    const list = byProject.get(s.projectId);
    if (list) list.push(s);
    else byProject.set(s.projectId, [s]);
  }
  for (const [projectId, list] of byProject) {
    // Their arrivals bound the rows read: on PostgreSQL only the day partitions that hold them are searched.
    const arrivals = list.map((s) => s.receivedAt).sort();
    const rows = await db
      .selectFrom("events")
      .select(["event_id", "data"])
      .where("project_id", "=", projectId)
      .where(
        "event_id",
        "in",
        list.map((s) => s.eventId!),
      )
      .where("received_at", ">=", arrivals[0]!)
      .where("received_at", "<=", arrivals[arrivals.length - 1]!)
      .execute();
    for (const r of rows) {
      try {
        out.set(`${projectId}:${r.event_id}`, JSON.parse(decodeEventData(r.data)) as Record<string, unknown>);
      } catch (err) {
        if (!(err instanceof EventDataError || err instanceof SyntaxError)) throw err;
      }
    }
  }
  return out;
}
