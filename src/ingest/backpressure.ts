// When accepting more could mean losing it, the intake says so instead (503 with Retry-After): the spool's backlog
// (the digest is behind), the bytes waiting for a commit, or the free space left on the data dir's disk.
import { statfs } from "node:fs/promises";
import { SPOOL_LIMITS } from "../config/limits";
import type { SpoolWriter } from "./spool";

export class Backpressure {
  private freeBytes = Number.POSITIVE_INFINITY;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly spool: SpoolWriter,
    private readonly dataDir: string,
    private readonly limits: Pick<typeof SPOOL_LIMITS, "maxBacklogBytes" | "maxPendingBytes" | "minFreeDiskBytes"> = SPOOL_LIMITS,
  ) {
    void this.measure();
    this.timer = setInterval(() => void this.measure(), SPOOL_LIMITS.diskCheckIntervalMs);
    this.timer.unref();
  }

  private async measure(): Promise<void> {
    try {
      const s = await statfs(this.dataDir);
      this.freeBytes = s.bavail * s.bsize;
    } catch {
      // Unmeasurable (e.g. the directory vanished): the spool's own writes will fail and answer 503.
    }
  }

  /** Why the intake should refuse right now, or null. */
  reason(): string | null {
    if (this.freeBytes < this.limits.minFreeDiskBytes) return "the server's disk is nearly full";
    if (this.spool.backlogBytes > this.limits.maxBacklogBytes) return "the server is processing a backlog";
    if (this.spool.pendingBytes > this.limits.maxPendingBytes) return "the server is overloaded";
    return null;
  }

  close(): void {
    clearInterval(this.timer);
  }
}
