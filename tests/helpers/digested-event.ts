// A digested error event for storage tests, grouped by `hash` and titled "<prefix> <hash>"; ids never repeat.
import type { DigestedEvent } from "../../src/digest/items";

let n = 0;

export const digestedEvent = (prefix: string, projectId: number, hash: string, over: Partial<DigestedEvent> = {}): DigestedEvent => ({
  projectId,
  eventId: (++n).toString(16).padStart(32, "0"),
  type: "error",
  receivedAt: "2026-11-23T10:15:00.000Z",
  timestamp: "2026-11-23T10:15:00.000Z",
  platform: "python",
  level: "error",
  title: `${prefix} ${hash}`,
  message: "m",
  culprit: "app in main",
  release: null,
  environment: null,
  size: 2,
  data: "{}",
  category: "error",
  grouping: { config: "c", hashes: [hash] },
  metadata: "{}",
  userKey: null,
  tags: [],
  ...over,
});
