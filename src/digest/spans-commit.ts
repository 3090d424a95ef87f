// The span part of a digest batch (commit.ts): the spans of the transactions stored in it (a transaction already
// stored adds nothing) and of its span items, their rollups, and the trace links of its stored error events.
import type { DigestTx } from "../storage/digest-ports";
import type { TraceEventLink } from "../storage/span-ports";
import type { DigestedEvent } from "./items";
import { type ExpandedSpans, nameBySegment, rollupSpans, segmentKey } from "./spans";

/** `rowIds`: "projectId:eventId" → events.id of the stored events. */
export async function writeSpans(tx: DigestTx, stored: DigestedEvent[], rowIds: Map<string, number>, items: ExpandedSpans | undefined): Promise<void> {
  const spans = [...(items?.spans ?? [])];
  const values = [...(items?.values ?? [])];
  const links: TraceEventLink[] = [];
  for (const e of stored) {
    if (e.spans) {
      spans.push(...e.spans.spans);
      values.push(...e.spans.values);
    }
    const eventRowId = e.traceId ? rowIds.get(`${e.projectId}:${e.eventId}`) : undefined;
    if (e.traceId && eventRowId !== undefined) links.push({ eventRowId, traceId: e.traceId, projectId: e.projectId, receivedAt: e.receivedAt });
  }
  // Streamed children whose segment is not in this batch take its name from the stored segment.
  const inBatch = new Set(spans.filter((s) => s.isSegment).map((s) => `${s.projectId}:${s.traceId}:${s.spanId}`));
  const missing = new Map<string, { projectId: number; traceId: string; spanId: string }>();
  for (const s of spans) {
    const key = s.isSegment ? null : segmentKey(s);
    if (key && !inBatch.has(key)) missing.set(key, { projectId: s.projectId, traceId: s.traceId, spanId: s.segmentId! });
  }
  nameBySegment({ spans, values }, await tx.segmentNames([...missing.values()]));
  await tx.insertSpans(spans);
  const { hours, buckets } = rollupSpans(values);
  await tx.addSpanHours(hours, buckets);
  await tx.linkTraceEvents(links);
}
