// The digest's grouping: an event's hashes, remembered by what the config reads of the event. Events of one error
// repeat its exception, its stack and its message, and a config's hashes are a pure function of what its `key` holds,
// so the digest groups each distinct input once and then looks it up (a 12-frame browser error: about 86 µs to group,
// about 13 µs for its key and the key's digest). Only the hashes are remembered: the component trees that explain them
// are built by groupEvent.
import { hash } from "node:crypto";
import type { GroupingConfig } from "./types";

/**
 * entries; inputs remembered per config, the least recently used forgotten first, so that odd inputs cannot grow the
 * memory without bound and an install with more distinct errors than this keeps its frequent ones. Each holds the
 * key's SHA-256 (44 characters), never the key itself, and the hashes: about 200 bytes, under 1 MiB in all however
 * large the events.
 */
export const MAX_REMEMBERED_INPUTS = 4096;

const memories = new WeakMap<GroupingConfig, Map<string, readonly string[]>>();

/** The config id and the grouping hashes of `event`, as `config.group(event)` gives them. */
export function rememberedHashes(config: GroupingConfig, event: unknown): { config: string; hashes: string[] } {
  const key = config.key ? config.key(event) : null;
  if (key === null) return { config: config.id, hashes: config.group(event).hashes };
  let memory = memories.get(config);
  if (!memory) memories.set(config, (memory = new Map()));
  const digest = hash("sha256", key, "base64");
  const known = memory.get(digest);
  if (known) {
    // A Map iterates in insertion order: set again, the entry becomes the most recently used.
    memory.delete(digest);
    memory.set(digest, known);
    return { config: config.id, hashes: [...known] };
  }
  const { hashes } = config.group(event);
  if (memory.size >= MAX_REMEMBERED_INPUTS) memory.delete(memory.keys().next().value!);
  memory.set(digest, [...hashes]);
  return { config: config.id, hashes };
}
