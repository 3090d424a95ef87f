// How often an issue happened: its events per hour over the last 24 hours and per day over the last 30 days, as
// Sentry's `[[epochSeconds, count], …]` with zeros included (the issue API's `stats` and the issue page's chart).
import type { IssueStore } from "../storage/issue-ports";
import { hourOf } from "./hours";
import type { IssueView } from "./issues";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The last 24 hours as Sentry's `[[epochSeconds, count], …]`, oldest first, zeros included. */
export function dayBuckets(counts: { hour: string; count: number }[], now = Date.now()): [number, number][] {
  const byHour = new Map(counts.map((c) => [Date.parse(c.hour), c.count]));
  const last = Date.parse(hourOf(now));
  return Array.from({ length: 24 }, (_, i) => {
    const at = last - (23 - i) * HOUR;
    return [at / 1000, byHour.get(at) ?? 0] as [number, number];
  });
}

export const statsSince = (now = Date.now()) => hourOf(Date.parse(hourOf(now)) - 23 * HOUR);

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The first of the last `days` UTC days ("2026-11-10"), the day daily buckets start at. */
export const dailyStatsSince = (days: number, now = Date.now()) => dayOf(now - (days - 1) * DAY);

/** The last `days` days as Sentry's `[[epochSeconds, count], …]`, oldest first, zeros included. */
export function dailyBuckets(counts: { day: string; count: number }[], days: number, now = Date.now()): [number, number][] {
  const byDay = new Map(counts.map((c) => [c.day, c.count]));
  const today = Date.parse(dayOf(now));
  return Array.from({ length: days }, (_, i) => {
    const at = today - (days - 1 - i) * DAY;
    return [at / 1000, byDay.get(dayOf(at)) ?? 0] as [number, number];
  });
}

export type IssueFrequency = { "24h": [number, number][]; "30d": [number, number][] };

/** The issue's last 24 hours (hourly) and 30 days (daily); the view is one the actor may read (core/issues.ts getIssue). */
export async function issueFrequency(store: IssueStore, view: IssueView, now = Date.now()): Promise<IssueFrequency> {
  const [hourly, daily] = await Promise.all([
    store.issueCounts(view.issue.id, statsSince(now)),
    store.issueDailyCountsOf([view.issue.id], dailyStatsSince(30, now)),
  ]);
  return { "24h": dayBuckets(hourly, now), "30d": dailyBuckets(daily.get(view.issue.id) ?? [], 30, now) };
}
