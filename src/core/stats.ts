// A project's outcome counts: what the intake accepted, filtered, rate-limited, found invalid, and what SDKs report
// they discarded themselves. Sentry's legacy stats API shape ([[timestamp, count], …]) and per-reason totals.
import { z } from "zod";
import type { OutcomeKind, OutcomeTotal } from "../storage/ports";
import { assertCan } from "./access";
import type { CoreContext } from "./context";
import { hourOf } from "./hours";
import { getProject } from "./projects";
import { parseInput } from "./schemas";

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
    since: z.coerce.number().int().min(0).optional(),
    until: z.coerce.number().int().min(0).optional(),
    resolution: z.enum(["1h", "1d"]).default("1h"),
  })
  .refine((v) => v.since === undefined || v.until === undefined || v.since <= v.until, "since must not be after until");

/** Points from `since` to `until` (epoch seconds) at hourly or daily resolution, zero where nothing was counted. */
export async function projectStatSeries(ctx: CoreContext, orgSlug: string, projectSlug: string, input: Record<string, unknown>): Promise<[number, number][]> {
  const q = parseInput(statsSchema, input);
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "project:read");
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
  assertCan(access, "project:read");
  return ctx.store.outcomeTotals(project.id, hourOf(Date.now() - days * DAY * 1000));
}
