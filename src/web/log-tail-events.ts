// The logs page's live tail as server-sent events (web/sse-stream.ts, as the issue stream's): each tick asks the core
// once for the lines stored after the last one sent (core/logs.ts `tailProjectLogs`, which checks the actor's access
// each time) and sends them as a `logs` frame, oldest first. The user's streams count together with their issue
// streams (web/live-streams.ts).
import "server-only";
import type { CoreContext } from "../core/context";
import type { LogQueryInput } from "../core/log-query";
import { readAfterId, tailProjectLogs } from "../core/logs";
import { frame, pollingEventStream, type StreamOwner, type Tick } from "./sse-stream";
import { pageLine } from "./components/logs/log-row";

/** The tail's parameters from its URL: the page's search, and the last line it shows. */
export function tailRequest(url: URL): { input: LogQueryInput; afterId: number } {
  const p = url.searchParams;
  return {
    input: { query: p.get("query") ?? undefined, level: p.get("level") ?? undefined, trace: p.get("trace") ?? undefined },
    afterId: readAfterId(p.get("after")),
  };
}

/** The event stream of one logs page; the first read runs before the response, so a bad request or no access gets its status. */
export async function logTailResponse(
  ctx: CoreContext,
  org: string,
  project: string,
  req: { input: LogQueryInput; afterId: number },
  signal: AbortSignal,
  owner: StreamOwner,
): Promise<Response> {
  let after = req.afterId;
  /** The lines after the last one sent, oldest first; more waiting is read on at once. */
  const lines = (tick: Awaited<ReturnType<typeof tailProjectLogs>>): Tick => {
    const last = tick.items[tick.items.length - 1];
    if (last) after = last.id;
    return { text: tick.items.length > 0 ? frame("logs", { items: tick.items.map(pageLine), more: tick.more }) : "", more: tick.more };
  };
  const first = lines(await tailProjectLogs(ctx, org, project, req.input, after));
  return pollingEventStream({ name: "log tail", owner, signal, first, poll: async () => lines(await tailProjectLogs(ctx, org, project, req.input, after)) });
}
