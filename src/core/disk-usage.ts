// Instance settings, disk: the data dir's usage by kind, its growth per day over the last week of daily samples, and
// the days the free disk lasts at that rate. Superusers only, checked here before anything is measured. A missing
// data dir or a sample that cannot be written (a full disk) is said on the page, never an error page.
import type { DiskSample, DiskGrowth } from "../ops/disk-samples";
import type { DiskUsage } from "../ops/disk-usage";
import { actingUser, type CoreContext } from "./context";
import { forbidden } from "./errors";

/** How the usage is measured and sampled (ops/disk-probe.ts on a real data dir). */
export type DiskProbe = {
  measure: () => Promise<DiskUsage>;
  record: (usage: DiskUsage, now: Date) => DiskSample[];
  samples: () => DiskSample[];
  growth: (samples: DiskSample[], freeBytes: number) => DiskGrowth;
};

export type DiskUsageView =
  | { status: "measured"; usage: DiskUsage; growth: DiskGrowth; samples: DiskSample[]; sampleError: string | null }
  | { status: "unavailable"; reason: string };

const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split("\n", 1)[0] ?? "";

export async function instanceDiskUsage(ctx: CoreContext, probe: DiskProbe, now: Date = new Date()): Promise<DiskUsageView> {
  if (!actingUser(ctx).isSuperuser) throw forbidden("Only superusers can see the instance's disk usage");
  let usage: DiskUsage;
  try {
    usage = await probe.measure();
  } catch (err) {
    return { status: "unavailable", reason: firstLine(err) };
  }
  let samples: DiskSample[];
  let sampleError: string | null = null;
  try {
    samples = probe.record(usage, now);
  } catch (err) {
    samples = probe.samples();
    sampleError = firstLine(err);
  }
  return { status: "measured", usage, growth: probe.growth(samples, usage.freeBytes), samples, sampleError };
}
