// Per-key and per-project event quotas ({count, windowSeconds}), counted in fixed windows in this process's memory.
// With several intake processes each counts its own share; the limits are meant as a brake, not an invoice.
import type { RateLimit } from "../storage/ports";

type Window = { start: number; count: number };

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  /**
   * Takes one unit from the quota named `name` (e.g. "key:12"), or tells how many seconds remain until it refills.
   * Windows are aligned to multiples of their length, as Sentry's quotas are.
   */
  take(name: string, limit: RateLimit, now = Date.now()): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const length = limit.windowSeconds * 1000;
    const start = Math.floor(now / length) * length;
    let w = this.windows.get(name);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(name, w);
    }
    if (w.count >= limit.count) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((start + length - now) / 1000)) };
    w.count++;
    return { ok: true };
  }
}
