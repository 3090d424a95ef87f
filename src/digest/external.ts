// FAULTLINE_DIGEST=external: `faultline worker` digests this server's spool in a process of its own. The server
// still has to know how far it got, to delete the segments behind it and to measure the backlog for backpressure;
// the worker saves its position in the database with every batch, so the server reads it from there.
import { DIGEST_LIMITS } from "../config/limits";
import type { DigestStore } from "../storage/ports";
import type { DigestHandle } from "./spawn";

export function followExternalDigest(
  store: Pick<DigestStore, "getSpoolPosition">,
  spoolId: string,
  onPosition: (position: number) => void,
  log: (line: string) => void,
  intervalMs: number = DIGEST_LIMITS.externalPositionPollMs,
): DigestHandle {
  let failing = false;
  let inFlight: Promise<void> = Promise.resolve();
  const poll = async () => {
    try {
      onPosition(await store.getSpoolPosition(spoolId));
      if (failing) log("faultline: reading the digest's position works again");
      failing = false;
    } catch (err) {
      // The database is away: the backlog looks larger meanwhile, nothing else changes. Said once per outage.
      if (!failing) log(`faultline: cannot read the digest's position: ${(err as Error).message}`);
      failing = true;
    }
  };
  let busy = false;
  const tick = () => {
    if (busy) return; // a slow database: skip rather than queue reads
    busy = true;
    inFlight = poll().finally(() => (busy = false));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    stop: async () => {
      clearInterval(timer);
      await inFlight;
    },
  };
}
