// A project's outcome counts: what the intake accepted, filtered, rate-limited, found invalid, and what SDKs report
// they discarded themselves. Sentry's legacy stats API shape ([[timestamp, count], …]) and per-reason totals.
import { z } from "zod";
import type { OutcomeKind, OutcomeTotal } from "../storage/ports";
import { assertCan } from "./access";
import type { CoreContext } from "./context";
import { hourOf } from "./hours";
import { getProject } from "./projects";
import { epochSecondsSchema, parseInput } from "./schemas";

/** Sentry's `stat` names and the outcomes each sums. */
const STATS: Record<string, OutcomeKind[]> = {
  received: ["accepted"],
  rejected: ["rate_limited"],
  blacklisted: ["filtered"],
  invalid: ["invalid"],
  client_discard: ["client_discard"],
};
/** Sentry's project stats count events: errors, messages and security reports. */
const EVENT_CATEGORIES = ["error", "default", "security"];
const HOUR = 3600;
const DAY = 86400;

const statsSchema = z
  .object({
    stat: z.enum(Object.keys(STATS) as [string, ...string[]]).default("received"),
    since: epochSecondsSchema.optional(),
    until: epochSecondsSchema.optional(),
    resolution: z.enum(["1h", "1d"]).default("1h"),
  })
  .refine((v) => v.since === undefined || v.until === undefined || v.since <= v.until, "since must not be after until");

/** Points from `since` to `until` (epoch seconds) at hourly or daily resolution, zero where nothing was counted. */
export async function projectStatSeries(ctx: CoreContext, orgSlug: string, projectSlug: string, input: Record<string, unknown>): Promise<[number, number][]> {
  const q = parseInput(statsSchema, input);
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "event:read");
  const step = q.resolution === "1d" ? DAY : HOUR;
  const until = Math.floor((q.until ?? Date.now() / 1000) / step) * step;
  const since = Math.max(Math.floor((q.since ?? until - (step === DAY ? 30 * DAY : DAY)) / step) * step, until - 400 * step);
  const rows = await ctx.store.outcomeSeries(project.id, {
    sinceHour: hourOf(since * 1000),
    untilHour: hourOf((until + step - 1) * 1000),
    outcomes: STATS[q.stat]!,
    categories: EVENT_CATEGORIES,
  });
  const points = new Map<number, number>();
  for (let t = since; t <= until; t += step) points.set(t, 0);
  for (const r of rows) {
    const t = Math.floor(Date.parse(r.hour) / 1000 / step) * step;
    if (points.has(t)) points.set(t, points.get(t)! + r.quantity);
  }
  return [...points.entries()];
}

/** Totals by outcome, category and reason over the last `days` days. */
export async function projectOutcomeTotals(ctx: CoreContext, orgSlug: string, projectSlug: string, days: number): Promise<OutcomeTotal[]> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "event:read");
  return ctx.store.outcomeTotals(project.id, hourOf(Date.now() - days * DAY * 1000));
}

/** The outcomes the project's stats chart draws, each with the Sentry `stat` that sums it. */
export const CHART_OUTCOMES = [
  ["accepted", "received"],
  ["filtered", "blacklisted"],
  ["rate_limited", "rejected"],
  ["invalid", "invalid"],
] as const satisfies readonly (readonly [OutcomeKind, string])[];

export type OutcomeChart = { times: number[]; series: { outcome: OutcomeKind; values: number[] }[] };

/** Events accepted, filtered, rate-limited and invalid per hour over the last day, or per day over the last 30. */
export async function projectOutcomeChart(ctx: CoreContext, orgSlug: string, projectSlug: string, period: "24h" | "30d"): Promise<OutcomeChart> {
  const resolution = period === "30d" ? "1d" : "1h";
  const series = await Promise.all(
    CHART_OUTCOMES.map(async ([outcome, stat]) => ({ outcome, points: await projectStatSeries(ctx, orgSlug, projectSlug, { stat, resolution }) })),
  );
  return { times: series[0]!.points.map(([t]) => t), series: series.map((s) => ({ outcome: s.outcome, values: s.points.map(([, v]) => v) })) };
}
