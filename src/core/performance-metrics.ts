// What performance monitoring measures, pure: the metrics (transaction duration and the web vitals), their
// thresholds, the log-bucketed histogram the digest keeps per hour, Apdex and Sentry's performance score. The digest
// writes with it and the core reads with it, so both agree on buckets and thresholds.
//
// Percentiles come from a histogram with logarithmic buckets (DDSketch's mapping): bucket i holds values in
// (γ^(i-1), γ^i] with γ = (1 + α) / (1 − α), and reads back as 2γ^i / (γ + 1). With α = 0.05 the value reported for a
// percentile is within 5% of the value of that exact rank, whatever the distribution, and buckets of different hours
// and transactions add up exactly. A duration from 1 ms to 1 hour takes at most 216 buckets; real traffic fills
// a few dozen per transaction and hour.

export const SKETCH_ALPHA = 0.05;
const GAMMA = (1 + SKETCH_ALPHA) / (1 - SKETCH_ALPHA);
const LOG_GAMMA = Math.log(GAMMA);
/** Values of 0 (a CLS of no shift, an instant span) and below: a bucket of their own. */
export const ZERO_BUCKET = -1_000_000;

export function bucketOf(value: number): number {
  if (!(value > 1e-9)) return ZERO_BUCKET;
  return Math.ceil(Math.log(value) / LOG_GAMMA);
}

export function bucketValue(bucket: number): number {
  if (bucket === ZERO_BUCKET) return 0;
  return (2 * Math.pow(GAMMA, bucket)) / (GAMMA + 1);
}

/** Buckets and counts (any order) → the value at quantile q (0..1), or null when empty. */
export function quantile(buckets: ReadonlyArray<{ bucket: number; count: number }>, q: number): number | null {
  const sorted = [...buckets].filter((b) => b.count > 0).sort((a, b) => a.bucket - b.bucket);
  const total = sorted.reduce((s, b) => s + b.count, 0);
  if (total === 0) return null;
  const rank = q * (total - 1);
  let seen = 0;
  for (const b of sorted) {
    seen += b.count;
    if (seen > rank) return bucketValue(b.bucket);
  }
  return bucketValue(sorted[sorted.length - 1]!.bucket);
}

export const WEB_VITALS = ["lcp", "fcp", "cls", "inp", "ttfb"] as const;
export type WebVital = (typeof WEB_VITALS)[number];
export type Metric = "duration" | WebVital;
export const isWebVital = (name: string): name is WebVital => (WEB_VITALS as readonly string[]).includes(name);

/** The rollups keep each metric per hour, and per UTC day under `<metric>@day` (its hour: the day's first). */
export const dailyMetric = (metric: Metric): string => `${metric}@day`;
/** The first hour of an hour's UTC day ("2026-11-23T10:00:00Z" → "2026-11-23T00:00:00Z"). */
export const dayOf = (hour: string): string => `${hour.slice(0, 10)}T00:00:00Z`;

/** Apdex's T in milliseconds: Sentry's default project threshold. Satisfied ≤ T, tolerated ≤ 4T, frustrated beyond. */
export const APDEX_THRESHOLD_MS = 300;

/**
 * Good at or below the first, poor above the second (web.dev's thresholds, as Sentry's web vitals page rates them);
 * for durations, Apdex's satisfied and frustrated bounds. CLS is unitless, the others milliseconds.
 */
export const THRESHOLDS: Record<Metric, readonly [number, number]> = {
  duration: [APDEX_THRESHOLD_MS, 4 * APDEX_THRESHOLD_MS],
  lcp: [2500, 4000],
  fcp: [1800, 3000],
  cls: [0.1, 0.25],
  inp: [200, 500],
  ttfb: [800, 1800],
};

export const rating = (metric: Metric, value: number): "good" | "meh" | "poor" =>
  value <= THRESHOLDS[metric][0] ? "good" : value > THRESHOLDS[metric][1] ? "poor" : "meh";

/** Apdex = (satisfied + tolerated / 2) / total. */
export const apdex = (count: number, satisfied: number, frustrated: number): number | null =>
  count > 0 ? (satisfied + (count - satisfied - frustrated) / 2) / count : null;

/**
 * Sentry's performance score: each vital scored 0..1 on a log-normal curve through its p90 score point (0.9) and its
 * median (0.5), as Lighthouse scores, weighted lcp 30, fcp 15, inp 30, cls 15, ttfb 10; vitals a page did not report
 * leave their weight to the others.
 */
export const SCORE_WEIGHTS: Record<WebVital, number> = { lcp: 30, fcp: 15, inp: 30, cls: 15, ttfb: 10 };
const SCORE_CURVE: Record<WebVital, { p10: number; median: number }> = {
  lcp: { p10: 1200, median: 2400 },
  fcp: { p10: 900, median: 1600 },
  cls: { p10: 0.1, median: 0.25 },
  ttfb: { p10: 200, median: 400 },
  inp: { p10: 200, median: 500 },
};

/** erfc by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7): enough for a score shown in whole points. */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const r = poly * Math.exp(-z * z);
  return x >= 0 ? r : 2 - r;
}

/** One value's score, 0..1. */
export function vitalScore(vital: WebVital, value: number): number {
  if (value <= 0) return 1;
  const { p10, median } = SCORE_CURVE[vital];
  const INVERSE_ERFC_ONE_FIFTH = 0.9061938024368232;
  const standardized = (Math.log(value / median) * INVERSE_ERFC_ONE_FIFTH) / -Math.log(p10 / median);
  return Math.min(1, Math.max(0, erfc(standardized) / 2));
}

/** The average score of a vital's values, from its histogram (each bucket scored at its representative value). */
export function averageScore(vital: WebVital, buckets: ReadonlyArray<{ bucket: number; count: number }>): number | null {
  let total = 0;
  let sum = 0;
  for (const b of buckets) {
    total += b.count;
    sum += b.count * vitalScore(vital, bucketValue(b.bucket));
  }
  return total > 0 ? sum / total : null;
}

/** The weighted performance score, 0..100, from the vitals' average scores (absent ones reweighted away). */
export function performanceScore(scores: Partial<Record<WebVital, number | null>>): number | null {
  let weight = 0;
  let sum = 0;
  for (const v of WEB_VITALS) {
    const s = scores[v];
    if (s === null || s === undefined) continue;
    weight += SCORE_WEIGHTS[v];
    sum += SCORE_WEIGHTS[v] * s;
  }
  return weight > 0 ? (sum / weight) * 100 : null;
}
