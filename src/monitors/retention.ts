// Check-ins are kept as long as events (FAULTLINE_RETENTION_DAYS): the scheduler prunes older ones in short chunks,
// reading first, so a pass with nothing due writes nothing (on SQLite it runs on the intake's thread, where a write
// would wait for the digest's lock). Monitors and their environments stay.
import { MONITOR_LIMITS } from "../config/limits";
import type { Store } from "../storage/ports";

/** Prunes check-ins older than `days` at `now` (epoch ms), chunk by chunk until none is due; returns how many. */
export async function pruneCheckIns(store: Store, days: number, now = Date.now()): Promise<number> {
  const cutoff = new Date(now - days * 86_400_000).toISOString();
  let total = 0;
  for (;;) {
    const deleted = await store.pruneCheckInsBefore(cutoff, MONITOR_LIMITS.pruneChunk);
    total += deleted;
    if (deleted < MONITOR_LIMITS.pruneChunk) return total;
  }
}
