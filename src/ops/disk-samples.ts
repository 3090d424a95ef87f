// The daily samples of the data dir's disk usage, in disk-usage.json in the data dir (one per node: each node has its
// own data dir), and the growth they show: bytes per day over the last DISK_USAGE_LIMITS.growthSamples samples, and
// the days the free disk lasts at that rate.
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DISK_USAGE_LIMITS } from "../config/limits";
import type { DiskKind, DiskUsage } from "./disk-usage";

export type DiskSample = { day: string; total: number; free: number; bytes: Record<DiskKind, number> };
export type DiskGrowth = { bytesPerDay: number | null; daysLeft: number | null; samples: number };

export const samplesFile = (dataDir: string) => path.join(dataDir, "disk-usage.json");

export function readSamples(dataDir: string): DiskSample[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(samplesFile(dataDir), "utf8"));
    return Array.isArray(parsed) ? parsed.filter((s): s is DiskSample => typeof s?.day === "string" && typeof s?.total === "number") : [];
  } catch {
    return []; // none yet, or unreadable: sampling starts anew
  }
}

export const totalOf = (u: DiskUsage) => Object.values(u.bytes).reduce((a, b) => a + b, 0);

/**
 * Adds today's sample (UTC day of `now`) when it is not there yet, keeping the last keptSamples; written to a new file
 * and renamed over the old one, so a full disk leaves the old samples whole. The samples, with today's.
 */
export function recordSample(dataDir: string, usage: DiskUsage, now: Date): DiskSample[] {
  const day = now.toISOString().slice(0, 10);
  const samples = readSamples(dataDir);
  if (samples.at(-1)?.day === day) return samples;
  const next = [...samples, { day, total: totalOf(usage), free: usage.freeBytes, bytes: usage.bytes }].slice(-DISK_USAGE_LIMITS.keptSamples);
  const tmp = `${samplesFile(dataDir)}.tmp`;
  writeFileSync(tmp, JSON.stringify(next));
  renameSync(tmp, samplesFile(dataDir));
  return next;
}

/** Growth per day between the first and the last of the last growthSamples samples; days left = free / growth. */
export function growthOf(samples: DiskSample[], freeBytes: number): DiskGrowth {
  const recent = samples.slice(-DISK_USAGE_LIMITS.growthSamples);
  const first = recent[0];
  const last = recent.at(-1);
  if (!first || !last || first === last) return { bytesPerDay: null, daysLeft: null, samples: recent.length };
  const days = (Date.parse(last.day) - Date.parse(first.day)) / 86_400_000;
  if (!(days > 0)) return { bytesPerDay: null, daysLeft: null, samples: recent.length };
  const bytesPerDay = (last.total - first.total) / days;
  return { bytesPerDay, daysLeft: bytesPerDay > 0 ? Math.floor(freeBytes / bytesPerDay) : null, samples: recent.length };
}
