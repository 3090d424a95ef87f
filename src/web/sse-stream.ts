// A polling stream of server-sent events, as the issue stream (issue-stream-events.ts) and the log tail
// (log-tail-events.ts) send them: each tick first checks that the session the stream was opened with is still signed
// in, then polls once and writes what the poll says; no transaction stays open between ticks. A connection ends after
// STREAM_LIMITS.maxConnectionMs and the browser's EventSource reconnects (after the `retry` the stream names). A
// stream that must not come back ends with an `end` frame, whose `code` the page shows: `signed_out` (the session was
// signed out or revoked), `superseded` (the user opened more than STREAM_LIMITS.maxStreamsPerUser streams,
// web/live-streams.ts, and this was the oldest), `refused` (access or the object gone) or `unavailable`.
import "server-only";
import { STREAM_LIMITS } from "../config/limits";
import { isAppError } from "../core/errors";
import { holdLiveStream } from "./live-streams";

export type EndCode = "signed_out" | "superseded" | "refused" | "unavailable";

/**
 * Whose stream it is: the user it counts for, the session it was opened with (ended at once when that session is
 * revoked, web/live-streams.ts), and whether that session is still signed in (checked on every tick as well).
 */
export type StreamOwner = { userId: string; sessionId: string; signedIn: () => Promise<boolean> };

/** One server-sent event. */
export const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** What one poll gives: the frames to write ("" for none: a comment keeps the connection alive), and whether more waits at once. */
export type Tick = { text: string; more?: boolean };

export type PollingStream = {
  /** What the stream is, for the server's log when a poll fails unexpectedly. */
  name: string;
  owner: StreamOwner;
  signal: AbortSignal;
  /** The first poll's outcome, read before the response so that a bad request or no access gets its status instead. */
  first: Tick;
  poll: () => Promise<Tick>;
};

export function pollingEventStream({ name, owner, signal, first, poll }: PollingStream): Response {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let release = () => {};
  let begun = false;
  // Begun at the first read, not when the answer is made: an answer whose body is never read (a HEAD, which Next
  // answers with GET's headers alone) held a live stream of its user's for minutes, polling every tick and
  // superseding their open pages. A stream is read by asking for its next piece, so pull() starts it once.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (begun) return;
        begun = true;
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
        /** Tells the page why the stream stops for good (its EventSource then closes rather than reconnecting). */
        const end = (code: EndCode, reason: string) => {
          write(frame("end", { code, reason }));
          close();
        };
        /** Writes a tick; a tick with more waiting is followed at once (a burst is read a batch per tick). */
        const emit = (tick: Tick) => {
          write(tick.text || ": tick\n\n");
          timer = setTimeout(() => void loop(), tick.more ? 0 : STREAM_LIMITS.pollIntervalMs);
        };
        const loop = async () => {
          if (closed || signal.aborted || Date.now() >= ends) return close();
          let tick: Tick;
          try {
            if (!(await owner.signedIn())) return end("signed_out", "The session was signed out");
            if (closed) return;
            tick = await poll();
          } catch (err) {
            // Access revoked, the object deleted, the database gone: tell the page, then stop.
            if (!isAppError(err)) console.error(`faultline: the ${name}'s poll failed`, err);
            return isAppError(err) ? end("refused", err.message) : end("unavailable", "unavailable");
          }
          if (!closed) emit(tick);
        };
        write(`retry: ${STREAM_LIMITS.pollIntervalMs * 2}\n\n`);
        emit(first);
        release = holdLiveStream(owner.userId, {
          sessionId: owner.sessionId,
          end: (why) => (why === "superseded" ? end("superseded", "Live updates continue in a newer page") : end("signed_out", "The session was signed out")),
        });
        signal.addEventListener("abort", close, { once: true });
      },
      cancel() {
        closed = true;
        clearTimeout(timer);
        release();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}
