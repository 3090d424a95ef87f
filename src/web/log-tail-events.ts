// The logs page's live tail as server-sent events, as the issue stream's (web/issue-stream-events.ts): every tick
// checks that the session is still signed in, then asks the core once for the lines stored after the last one sent
// (core/logs.ts `tailProjectLogs`, which checks the actor's access each time) and sends them as a `logs` frame, oldest
// first. No transaction stays open between ticks; a connection ends after STREAM_LIMITS.maxConnectionMs and the
// browser reconnects; an `end` frame says why a stream stops for good. The user's streams count together with their
// issue streams (web/live-streams.ts).
import "server-only";
import { STREAM_LIMITS } from "../config/limits";
import type { CoreContext } from "../core/context";
import { isAppError } from "../core/errors";
import type { LogQueryInput } from "../core/log-query";
import { readAfterId, tailProjectLogs } from "../core/logs";
import { holdLiveStream } from "./live-streams";
import type { StreamOwner } from "./issue-stream-events";
import { pageLine } from "./components/logs/log-row";

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

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
  const first = await tailProjectLogs(ctx, org, project, req.input, after);
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let release = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const ends = Date.now() + STREAM_LIMITS.maxConnectionMs;
      const close = () => {
        if (closed) return;
        closed = true;
        clearTimeout(timer);
        release();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const emit = (tick: Awaited<ReturnType<typeof tailProjectLogs>>) => {
        const last = tick.items[tick.items.length - 1];
        if (last) after = last.id;
        write(tick.items.length > 0 ? frame("logs", { items: tick.items.map(pageLine), more: tick.more }) : ": tick\n\n");
        return tick.more;
      };
      const end = (code: string, reason: string) => {
        write(frame("end", { code, reason }));
        close();
      };
      const loop = async () => {
        if (closed || signal.aborted || Date.now() >= ends) return close();
        let more = false;
        try {
          if (!(await owner.signedIn())) return end("signed_out", "The session was signed out");
          if (closed) return;
          more = emit(await tailProjectLogs(ctx, org, project, req.input, after));
        } catch (err) {
          if (!isAppError(err)) console.error("faultline: the log tail's poll failed", err);
          return isAppError(err) ? end("refused", err.message) : end("unavailable", "unavailable");
        }
        // A burst is read on at once, a batch per tick, rather than a batch every poll interval.
        timer = setTimeout(() => void loop(), more ? 0 : STREAM_LIMITS.pollIntervalMs);
      };
      write(`retry: ${STREAM_LIMITS.pollIntervalMs * 2}\n\n`);
      const more = emit(first);
      release = holdLiveStream(owner.userId, { end: () => end("superseded", "Live updates continue in a newer page") });
      timer = setTimeout(() => void loop(), more ? 0 : STREAM_LIMITS.pollIntervalMs);
      signal.addEventListener("abort", close, { once: true });
    },
    cancel() {
      closed = true;
      clearTimeout(timer);
      release();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
