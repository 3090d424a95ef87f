// The issue stream's live updates as server-sent events (web/sse-stream.ts: the session checked every tick, no
// transaction held between ticks, an `end` frame when it stops for good). Each tick polls the database once
// (core/issue-stream.ts `pollIssueStream`, which checks the actor's membership each time) and sends what changed since
// the previous tick: `new` (issues matching the search created since the page was read) and `figures` (counts, last
// seen and status of the issues on screen).
import "server-only";
import { STREAM_LIMITS } from "../config/limits";
import type { CoreContext } from "../core/context";
import { AppError } from "../core/errors";
import { type StreamQuery, type StreamTick, pollIssueStream } from "../core/issue-stream";
import type { IssueFigures } from "../storage/stream-ports";
import { frame, pollingEventStream, type StreamOwner, type Tick } from "./sse-stream";

export type StreamRequest = StreamQuery & { afterId: number; watchIds: number[] };

/** The stream's parameters from its URL: those of the page, the newest issue id it was read with, the ids shown. */
export function streamRequest(url: URL): StreamRequest {
  const p = url.searchParams;
  const after = p.get("after") ?? "0";
  const ids = (p.get("ids") ?? "").split(",").filter((s) => s !== "");
  if (!/^\d{1,15}$/.test(after) || ids.some((id) => !/^\d{1,15}$/.test(id))) throw new AppError("bad_request", "after and ids must be issue ids");
  if (ids.length > STREAM_LIMITS.maxWatchedIssues) throw new AppError("bad_request", `Watch at most ${STREAM_LIMITS.maxWatchedIssues} issues`);
  return {
    project: p.get("project") || null,
    query: p.get("query"),
    sort: null,
    environment: p.get("environment") || null,
    afterId: Number(after),
    watchIds: ids.map(Number),
  };
}

const same = (a: IssueFigures, b: IssueFigures | undefined) =>
  b !== undefined && a.timesSeen === b.timesSeen && a.userCount === b.userCount && a.lastSeen === b.lastSeen && a.status === b.status;

/**
 * The event stream for one page; the first poll runs before the response so that a bad request or a non-member
 * gets its error status, not a stream.
 */
export async function issueStreamResponse(ctx: CoreContext, org: string, req: StreamRequest, signal: AbortSignal, owner: StreamOwner): Promise<Response> {
  const sent = new Map<number, IssueFigures>();
  let announced = -1;
  /** `new` when the count of new issues changed, `figures` for the issues on screen whose figures changed. */
  const changes = (tick: StreamTick): Tick => {
    let text = "";
    if (tick.newIssues !== announced) text += frame("new", { count: tick.newIssues, capped: tick.newIssues >= STREAM_LIMITS.newIssuesCap });
    announced = tick.newIssues;
    const changed = tick.watched.filter((f) => !same(f, sent.get(f.id)));
    for (const f of changed) sent.set(f.id, f);
    if (changed.length > 0) text += frame("figures", { issues: changed });
    return { text };
  };
  const first = changes(await pollIssueStream(ctx, org, req));
  return pollingEventStream({ name: "issue stream", owner, signal, first, poll: async () => changes(await pollIssueStream(ctx, org, req)) });
}
