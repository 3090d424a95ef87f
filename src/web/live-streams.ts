// The live streams each user holds open (one per issue-stream or logs page), process-wide, with the session each was
// opened with:
// - past STREAM_LIMITS.maxStreamsPerUser the user's oldest stream is ended, so that the page opened last always
//   updates and a client opening streams in a loop holds no more than the limit;
// - when sessions end (revoked on the account page, a password or two-factor change signing the others out), their
//   streams are ended at once (`endStreamsOfEndedSessions`), not at their next tick.
// Kept on globalThis: Next's bundle may load this module once per route chunk, and the registry must be one.
import { STREAM_LIMITS } from "../config/limits";

/** Why the registry ends a stream: the user opened too many, or the stream's session ended. */
export type StreamEnd = "superseded" | "signed_out";

export type LiveStream = { end: (why: StreamEnd) => void; sessionId: string };

const KEY = Symbol.for("faultline.liveStreams");
const registry = globalThis as typeof globalThis & { [KEY]?: Map<string, LiveStream[]> };
const open = (registry[KEY] ??= new Map<string, LiveStream[]>());

/** Counts `stream` as one of the user's; returns its release, to call once it has ended (calling it twice is harmless). */
export function holdLiveStream(userId: string, stream: LiveStream): () => void {
  const streams = open.get(userId) ?? [];
  open.set(userId, streams);
  streams.push(stream);
  while (streams.length > STREAM_LIMITS.maxStreamsPerUser) {
    const oldest = streams.shift();
    oldest?.end("superseded");
  }
  return () => {
    const at = streams.indexOf(stream);
    if (at >= 0) streams.splice(at, 1);
    if (streams.length === 0 && open.get(userId) === streams) open.delete(userId);
  };
}

/** Ends the user's streams whose session is not among `activeSessionIds` (the sessions still signed in); returns how many. */
export function endStreamsOfEndedSessions(userId: string, activeSessionIds: readonly string[]): number {
  const active = new Set(activeSessionIds);
  const ending = (open.get(userId) ?? []).filter((s) => !active.has(s.sessionId));
  // Each end() releases its stream from the list, so the list is copied first.
  for (const stream of ending) stream.end("signed_out");
  return ending.length;
}

/** Ends the user's streams opened with one of `sessionIds`; returns how many. */
export function endStreamsOfSessions(userId: string, sessionIds: readonly string[]): number {
  const ended = new Set(sessionIds);
  const ending = (open.get(userId) ?? []).filter((s) => ended.has(s.sessionId));
  for (const stream of ending) stream.end("signed_out");
  return ending.length;
}
