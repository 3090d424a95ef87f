// Per-key and per-project quotas ({count, windowSeconds}) of each data category, counted in fixed windows in this
// process's memory: the fast path, no database round trip per request. With several nodes on PostgreSQL
// (ingest/quota-sync.ts) each node also says a few times a second what it took, and learns what the others took:
// a window's total is then every node's, as of the last exchange.
import type { QuotaDelta, QuotaTotal } from "../storage/cluster-ports";
import type { RateLimit } from "../storage/ports";

/** count: units this process took; sent: those of them the shared count has; others: other nodes' units, last known. */
type Window = { start: number; length: number; count: number; sent: number; others: number };

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
      w = { start, length, count: 0, sent: 0, others: 0 };
      this.windows.set(name, w);
    }
    if (w.count + w.others + quantity > limit.count) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((start + length - now) / 1000)) };
    w.count += quantity;
    return { ok: true };
  }

  /**
   * What to tell the other nodes: each open window's units taken since the last call (0 to only learn theirs);
   * windows that ended are forgotten. The units count as sent; `unsent` puts them back when the exchange failed.
   */
  outgoing(now = Date.now()): QuotaDelta[] {
    const out: QuotaDelta[] = [];
    for (const [name, w] of this.windows) {
      if (w.start + w.length <= now) {
        this.windows.delete(name);
        continue;
      }
      out.push({ name, windowStart: w.start, expiresAt: w.start + w.length, delta: w.count - w.sent });
      w.sent = w.count;
    }
    return out;
  }

  /** The exchange failed: these units are sent again next time. */
  unsent(deltas: QuotaDelta[]): void {
    for (const d of deltas) {
      const w = this.windows.get(d.name);
      if (w && w.start === d.windowStart) w.sent -= d.delta;
    }
  }

  /** The shared totals of windows: the other nodes' part is what this process did not send. */
  learn(totals: QuotaTotal[]): void {
    for (const t of totals) {
      const w = this.windows.get(t.name);
      if (w && w.start === t.windowStart) w.others = Math.max(0, t.count - w.sent);
    }
  }
}
