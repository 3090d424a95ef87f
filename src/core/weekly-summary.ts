// The weekly summary: on Monday morning in each person's time zone (from PERSONAL_NOTIFICATION_LIMITS.summaryDueHour,
// for summaryDueWindowHours), one summary per person and organization of the week that just ended there (Monday
// 00:00 to Monday 00:00, their time): new issues, events, the most frequent issues and the crash-free session rate.
// Written to the outbox keyed `summary:<org>:<user>:<ISO week>`, so several processes, or runs, add it once.
// Everything here takes `now`, so that tests fix the time.
import { PERSONAL_NOTIFICATION_LIMITS } from "../config/limits";
import type { NewNotification, SummaryNotificationPayload } from "../storage/notification-ports";
import { RECIPIENT_ACTION } from "../storage/notification-ports";
import type { SummaryCandidate, SummaryFigures } from "../storage/notification-settings-ports";
import type { Store } from "../storage/ports";
import { issueLink, orgIssuesLink } from "./links";

type LocalTime = { year: number; month: number; day: number; weekday: number; hour: number; minute: number };

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock time at `at` in `timeZone` (ISO weekday: Monday 1 … Sunday 7). */
export function localTime(at: Date, timeZone: string): LocalTime {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      weekday: "short",
      hour: "numeric",
      minute: "numeric",
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAYS[parts.weekday!]!,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

/** The UTC instant of 00:00 on a calendar day in `timeZone` (the first instant of that day there). */
export function zonedMidnight(ymd: { year: number; month: number; day: number }, timeZone: string): Date {
  const wall = Date.UTC(ymd.year, ymd.month - 1, ymd.day);
  let guess = wall;
  // Two rounds settle the offset, also on a day whose offset changes (daylight saving time).
  for (let i = 0; i < 2; i++) {
    const l = localTime(new Date(guess), timeZone);
    const seen = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute);
    guess += wall - seen;
  }
  return new Date(guess);
}

const ymdOf = (utcDay: Date) => ({ year: utcDay.getUTCFullYear(), month: utcDay.getUTCMonth() + 1, day: utcDay.getUTCDate() });
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** ISO 8601 week of a calendar day (given as a UTC midnight): "2026-W47". */
export function isoWeek(utcDay: Date): string {
  const thursday = new Date(utcDay.getTime());
  thursday.setUTCDate(thursday.getUTCDate() + 4 - (thursday.getUTCDay() || 7));
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((thursday.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${thursday.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/** The week a summary covers: its ISO week, first and last day there, and its bounds as UTC instants (end exclusive). */
export type SummaryWeek = { week: string; from: string; to: string; start: string; end: string };

/**
 * The week whose summary is due at `now` for a person in `timeZone` (null: UTC), or null when none is: due from
 * Monday's due hour for the next summaryDueWindowHours of wall-clock time, then not again until the next Monday.
 */
export function summaryDue(now: Date, timeZone: string | null): SummaryWeek | null {
  const zone = timeZone ?? "UTC";
  const l = localTime(now, zone);
  const minutesIntoWeek = (l.weekday - 1) * 1440 + l.hour * 60 + l.minute;
  const dueFrom = PERSONAL_NOTIFICATION_LIMITS.summaryDueHour * 60;
  if (minutesIntoWeek < dueFrom || minutesIntoWeek >= dueFrom + PERSONAL_NOTIFICATION_LIMITS.summaryDueWindowHours * 60) return null;
  const thisMonday = new Date(Date.UTC(l.year, l.month - 1, l.day - (l.weekday - 1)));
  const lastMonday = new Date(thisMonday.getTime() - 7 * 86_400_000);
  const lastSunday = new Date(thisMonday.getTime() - 86_400_000);
  return {
    week: isoWeek(lastMonday),
    from: isoDate(lastMonday),
    to: isoDate(lastSunday),
    start: zonedMidnight(ymdOf(lastMonday), zone).toISOString(),
    end: zonedMidnight(ymdOf(thisMonday), zone).toISOString(),
  };
}

export const summaryKey = (organizationId: number, userId: string, week: string) => `summary:${organizationId}:${userId}:${week}`;

/** Crash-free sessions in percent, as Sentry computes it (100 − crashed / total × 100); null without sessions. */
export const crashFreeRate = (sessions: number, crashed: number): number | null =>
  sessions > 0 ? Math.round((100 - (crashed / sessions) * 100) * 1000) / 1000 : null;

export function summaryNotification(c: SummaryCandidate, week: SummaryWeek, figures: SummaryFigures, base: string, now: Date): NewNotification {
  const payload: SummaryNotificationPayload = {
    kind: "summary",
    organization: c.organization,
    from: week.from,
    to: week.to,
    newIssues: figures.newIssues,
    events: figures.events,
    topIssues: figures.topIssues.map((i) => ({
      shortId: i.shortId,
      title: i.title,
      count: i.count,
      url: issueLink(base, c.locale, c.organization.slug, i.id),
    })),
    crashFreeSessions: crashFreeRate(figures.sessions, figures.crashedSessions),
    url: orgIssuesLink(base, c.locale, c.organization.slug),
  };
  return {
    organizationId: c.organization.id,
    projectId: null,
    source: "weekly_summary",
    ruleId: null,
    issueId: null,
    action: { id: RECIPIENT_ACTION, userId: c.userId, email: c.email, locale: c.locale },
    payload,
    idempotencyKey: summaryKey(c.organization.id, c.userId, week.week),
    createdAt: now.toISOString(),
  };
}

/**
 * One pass of the scheduler: the summaries due at `now` that are not in the outbox yet, written to it. Figures are
 * read once per organization and week bounds (people in one time zone share them). Returns how many were new.
 */
export async function writeDueSummaries(store: Store, now: Date, base: string): Promise<number> {
  const due: { c: SummaryCandidate; week: SummaryWeek }[] = [];
  for (const c of await store.weeklySummaryCandidates()) {
    const week = summaryDue(now, c.timeZone);
    if (week) due.push({ c, week });
  }
  if (due.length === 0) return 0;
  const written = await store.existingNotificationKeys(due.map(({ c, week }) => summaryKey(c.organization.id, c.userId, week.week)));
  const figures = new Map<string, SummaryFigures>();
  const rows: NewNotification[] = [];
  for (const { c, week } of due) {
    if (written.has(summaryKey(c.organization.id, c.userId, week.week))) continue;
    const k = `${c.organization.id}|${week.start}|${week.end}`;
    let f = figures.get(k);
    if (!f) {
      f = await store.weeklySummaryFigures(c.organization.id, week.start, week.end, PERSONAL_NOTIFICATION_LIMITS.summaryTopIssues);
      figures.set(k, f);
    }
    rows.push(summaryNotification(c, week, f, base, now));
  }
  return rows.length === 0 ? 0 : store.enqueueNotificationRows(rows);
}
