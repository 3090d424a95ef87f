// Per-key and per-project quotas ({count, windowSeconds}) of each data category, counted in fixed windows in this
// process's memory.
// With several intake processes each counts its own share; the limits are meant as a brake, not an invoice.
import type { RateLimit } from "../storage/ports";

type Window = { start: number; count: number };

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  /**
   * Takes `quantity` units (items, or bytes of attachments) from the quota named `name` (e.g. "key:12:error"), or
   * tells how many seconds remain until it refills. Windows are aligned to multiples of their length, as Sentry's
   * quotas are. What does not fit is not taken.
   */
  take(name: string, limit: RateLimit, now = Date.now(), quantity = 1): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const length = limit.windowSeconds * 1000;
    const start = Math.floor(now / length) * length;
    let w = this.windows.get(name);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(name, w);
    }
    if (w.count + quantity > limit.count) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((start + length - now) / 1000)) };
    w.count += quantity;
    return { ok: true };
  }
}
