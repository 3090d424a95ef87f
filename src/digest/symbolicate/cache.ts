// Parsed source maps kept between events, so a burst of events from one bundle parses its map once. Bounded by an
// estimate of bytes (least recently used dropped first); entries found by release or fetched expire after a while,
// since a release's files may be uploaded again under the same name. Maps found by debug id never change.
import { SYMBOLICATION_LIMITS } from "../../config/limits";
import type { ParsedMap } from "./source-map";

type Entry = { map: ParsedMap; bytes: number; expiresAt: number | null };

export class SourceMapCache {
  private readonly entries = new Map<string, Entry>();
  private used = 0;

  constructor(
    readonly maxBytes: number = SYMBOLICATION_LIMITS.cacheBytes,
    private readonly now: () => number = Date.now,
  ) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): ParsedMap | null {
    const e = this.entries.get(key);
    if (!e) return null;
    this.entries.delete(key);
    if (e.expiresAt !== null && e.expiresAt <= this.now()) {
      this.used -= e.bytes;
      return null;
    }
    this.entries.set(key, e); // most recently used last
    return e.map;
  }

  /** Keeps `map` (unless it alone is larger than the cache); ttlMs null: until evicted. */
  set(key: string, map: ParsedMap, ttlMs: number | null): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.used -= old.bytes;
    }
    const bytes = map.bytes * SYMBOLICATION_LIMITS.parsedBytesFactor;
    if (bytes > this.maxBytes) return;
    for (const [k, e] of this.entries) {
      if (this.used + bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.used -= e.bytes;
    }
    this.entries.set(key, { map, bytes, expiresAt: ttlMs === null ? null : this.now() + ttlMs });
    this.used += bytes;
  }
}
