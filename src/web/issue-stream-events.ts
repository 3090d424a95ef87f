// The issue stream's live updates as server-sent events. Every tick first checks that the session the stream was
// opened with is still signed in, then polls the database once (core/issue-stream.ts `pollIssueStream`, which checks
// the actor's membership each time) and sends what changed since the previous tick: `new` (issues matching the search
// created since the page was read) and `figures` (counts, last seen and status of the issues on screen). No
// transaction stays open between ticks; a connection ends after STREAM_LIMITS.maxConnectionMs and the browser's
// EventSource reconnects. A stream that must not come back ends with an `end` frame, whose `code` the page shows:
// `signed_out` (the session was signed out or revoked), `superseded` (the user opened more than
// STREAM_LIMITS.maxStreamsPerUser streams, web/live-streams.ts, and this was the oldest), `refused` (membership or
// project gone) or `unavailable`.
import "server-only";
import { STREAM_LIMITS } from "../config/limits";
import type { CoreContext } from "../core/context";
import { AppError, isAppError } from "../core/errors";
import { type StreamQuery, type StreamTick, pollIssueStream } from "../core/issue-stream";
import type { IssueFigures } from "../storage/stream-ports";
import { holdLiveStream } from "./live-streams";

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

const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const same = (a: IssueFigures, b: IssueFigures | undefined) =>
  b !== undefined && a.timesSeen === b.timesSeen && a.userCount === b.userCount && a.lastSeen === b.lastSeen && a.status === b.status;

export type EndCode = "signed_out" | "superseded" | "refused" | "unavailable";

/** Whose stream it is: the user it counts for, and whether the session it was opened with is still signed in. */
export type StreamOwner = { userId: string; signedIn: () => Promise<boolean> };

/**
 * The event stream for one page; the first poll runs before the response so that a bad request or a non-member
 * gets its error status, not a stream.
 */
export async function issueStreamResponse(ctx: CoreContext, org: string, req: StreamRequest, signal: AbortSignal, owner: StreamOwner): Promise<Response> {
  const first = await pollIssueStream(ctx, org, req);
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let release = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const sent = new Map<number, IssueFigures>();
      let announced = -1;
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
      /** Writes unless the client has gone; a write that fails ends the stream. */
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };
      const emit = (tick: StreamTick) => {
        let out = "";
        if (tick.newIssues !== announced) out += frame("new", { count: tick.newIssues, capped: tick.newIssues >= STREAM_LIMITS.newIssuesCap });
        announced = tick.newIssues;
        const changed = tick.watched.filter((f) => !same(f, sent.get(f.id)));
        for (const f of changed) sent.set(f.id, f);
        if (changed.length > 0) out += frame("figures", { issues: changed });
        write(out || ": tick\n\n");
      };
      /** Tells the page why the stream stops for good (its EventSource then closes rather than reconnecting). */
      const end = (code: EndCode, reason: string) => {
        write(frame("end", { code, reason }));
        close();
      };
      const loop = async () => {
        if (closed || signal.aborted || Date.now() >= ends) return close();
        try {
          if (!(await owner.signedIn())) return end("signed_out", "The session was signed out");
          if (closed) return;
          emit(await pollIssueStream(ctx, org, req));
        } catch (err) {
          // Membership revoked, project deleted, database gone: tell the page, then stop.
          if (!isAppError(err)) console.error("faultline: the issue stream's poll failed", err);
          return isAppError(err) ? end("refused", err.message) : end("unavailable", "unavailable");
        }
        timer = setTimeout(() => void loop(), STREAM_LIMITS.pollIntervalMs);
      };
      write(`retry: ${STREAM_LIMITS.pollIntervalMs * 2}\n\n`);
      emit(first);
      release = holdLiveStream(owner.userId, { end: () => end("superseded", "Live updates continue in a newer page") });
      timer = setTimeout(() => void loop(), STREAM_LIMITS.pollIntervalMs);
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
