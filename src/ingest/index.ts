// The intake as the HTTP server uses it: the spool, the key cache, quotas and backpressure, put together.
import path from "node:path";
import type { IntakeKey } from "../storage/ports";
import { Backpressure } from "./backpressure";
import { createIntake } from "./intake";
import { KeyCache } from "./key-cache";
import { RateLimiter } from "./rate-limiter";
import { type SpoolDurability, SpoolWriter } from "./spool";

export { matchIntakeRoute } from "./routes";
export type { IntakeRoute } from "./routes";

export const spoolFile = (dataDir: string) => path.join(dataDir, "spool.sqlite3");

export type Intake = {
  handle: ReturnType<typeof createIntake>;
  spool: SpoolWriter;
  close: () => void;
};

export type IntakeOptions = {
  dataDir: string;
  durability: SpoolDurability;
  lookupKey: (publicKey: string) => Promise<IntakeKey | null>;
  log: (line: string) => void;
  /** Backpressure thresholds; SPOOL_LIMITS unless a test needs others. */
  pressureLimits?: ConstructorParameters<typeof Backpressure>[2];
};

export function openIntake(opts: IntakeOptions): Intake {
  const spool = SpoolWriter.open(spoolFile(opts.dataDir), opts.durability);
  const pressure = new Backpressure(spool, opts.dataDir, opts.pressureLimits);
  const handle = createIntake({ spool, keys: new KeyCache(opts.lookupKey), limiter: new RateLimiter(), pressure, log: opts.log });
  return {
    handle,
    spool,
    close: () => {
      pressure.close();
      spool.close();
    },
  };
}
