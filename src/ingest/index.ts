// The intake as the HTTP server uses it: the spool, the key cache, quotas and backpressure, put together.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { IntakeKey } from "../storage/ports";
import { Backpressure } from "./backpressure";
import { createIntake } from "./intake";
import { KeyCache } from "./key-cache";
import { RateLimiter } from "./rate-limiter";
import { stagingDir } from "./attachment-staging";
import { type SpoolDurability, SpoolWriter } from "./spool";

export { matchIntakeRoute } from "./routes";
export type { IntakeRoute } from "./routes";

export { importLegacySpool } from "./legacy-spool";
export { registerInProcessIntake } from "./in-process";
export { startQuotaSync } from "./quota-sync";
export { stagingDir } from "./attachment-staging";

export const spoolDir = (dataDir: string) => path.join(dataDir, "spool");

/** The identity of the spool in `dataDir`, if there is one yet: the digest's position is saved under it. */
export function existingSpoolId(dataDir: string): string | null {
  try {
    return readFileSync(path.join(spoolDir(dataDir), "identity"), "utf8").trim() || null;
  } catch {
    return null;
  }
}

export type Intake = {
  handle: ReturnType<typeof createIntake>["handleIntake"];
  submitEnvelope: ReturnType<typeof createIntake>["submitEnvelope"];
  spool: SpoolWriter;
  /** The quotas' counts in memory (shared with other nodes by quota-sync.ts on PostgreSQL). */
  limiter: RateLimiter;
  close: () => void;
};

export type IntakeOptions = {
  dataDir: string;
  durability: SpoolDurability;
  lookupKey: (publicKey: string) => Promise<IntakeKey | null>;
  log: (line: string) => void;
  /** The position the digest saved for this data dir's spool (0 if none): the log continues at or after it. */
  resumeAfter?: number;
  /** Backpressure thresholds; SPOOL_LIMITS unless a test needs others. */
  pressureLimits?: ConstructorParameters<typeof Backpressure>[2];
};

export function openIntake(opts: IntakeOptions): Intake {
  const spool = SpoolWriter.open(spoolDir(opts.dataDir), opts.durability, opts.resumeAfter ?? 0);
  const pressure = new Backpressure(spool, opts.dataDir, opts.pressureLimits);
  const limiter = new RateLimiter();
  const uploads = { stagingDir: stagingDir(opts.dataDir), sync: opts.durability === "full" };
  const { handleIntake, submitEnvelope } = createIntake({ spool, keys: new KeyCache(opts.lookupKey), limiter, pressure, log: opts.log, uploads });
  return {
    handle: handleIntake,
    submitEnvelope,
    spool,
    limiter,
    close: () => {
      pressure.close();
      spool.close();
    },
  };
}
