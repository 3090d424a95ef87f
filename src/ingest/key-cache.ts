// DSN keys as the intake sees them, cached for a moment: most requests then cost no database round trip, and a key
// disabled in the dashboard stops within INTAKE_CACHE_LIMITS.keyTtlMs. Unknown keys are cached too, and the cache is
// bounded, so a flood of random keys can neither grow memory nor reach the database more than once per key and TTL.
import { INTAKE_CACHE_LIMITS } from "../config/limits";
import type { IntakeKey } from "../storage/ports";

type Entry = { value: Promise<IntakeKey | null>; expires: number; settled?: { key: IntakeKey | null } };

export class KeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly lookup: (publicKey: string) => Promise<IntakeKey | null>) {}

  /** The cached answer when it is fresh and already known, without waiting for a promise; otherwise undefined. */
  peek(publicKey: string, now = Date.now()): { key: IntakeKey | null } | undefined {
    const hit = this.entries.get(publicKey);
    return hit && hit.expires > now ? hit.settled : undefined;
  }

  get(publicKey: string, now = Date.now()): Promise<IntakeKey | null> {
    const hit = this.entries.get(publicKey);
    if (hit && hit.expires > now) return hit.value;
    const value = this.lookup(publicKey);
    if (this.entries.size >= INTAKE_CACHE_LIMITS.maxKeys) {
      for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
      // Still full: drop the oldest entry (Map keeps insertion order).
      if (this.entries.size >= INTAKE_CACHE_LIMITS.maxKeys) this.entries.delete(this.entries.keys().next().value!);
    }
    const entry: Entry = { value, expires: now + INTAKE_CACHE_LIMITS.keyTtlMs };
    this.entries.set(publicKey, entry);
    // A failed lookup is not remembered: the next request asks again.
    value.then(
      (key) => (entry.settled = { key }),
      () => this.entries.delete(publicKey),
    );
    return value;
  }
}
