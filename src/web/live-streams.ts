// The live streams each user holds open (one per issue-stream page), process-wide: past STREAM_LIMITS
// .maxStreamsPerUser the user's oldest stream is ended, so that the page opened last always updates and a client
// opening streams in a loop holds no more than the limit. Kept on globalThis: Next's bundle may load this module once
// per route chunk, and the count must be one.
import { STREAM_LIMITS } from "../config/limits";

export type LiveStream = { end: () => void };

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
    oldest?.end();
  }
  return () => {
    const at = streams.indexOf(stream);
    if (at >= 0) streams.splice(at, 1);
    if (streams.length === 0 && open.get(userId) === streams) open.delete(userId);
  };
}
