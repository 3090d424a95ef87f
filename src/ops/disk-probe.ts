// The disk probe of a data dir and database (core/disk-usage.ts): measured by disk-usage.ts, sampled by disk-samples.ts.
import type { DiskProbe } from "../core/disk-usage";
import type { Db } from "../storage/db";
import { growthOf, readSamples, recordSample } from "./disk-samples";
import { measureDiskUsage } from "./disk-usage";

export function diskProbe(dataDir: string, db: Db): DiskProbe {
  return {
    measure: () => measureDiskUsage(dataDir, db),
    record: (usage, now) => recordSample(dataDir, usage, now),
    samples: () => readSamples(dataDir),
    growth: growthOf,
  };
}
