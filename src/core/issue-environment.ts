// The issue page under an environment filter. The digest keeps an issue's hourly and daily counts and its tag values
// per issue, not per environment, so here they come from the issue's stored events in that environment: the
// frequency from their timestamps (an issue keeps its newest RETENTION_LIMITS.eventsPerIssue events, so a busier
// issue's older days undercount), the tags from the newest TRIAGE_LIMITS.environmentTagSample of them, counted as the
// digest counts an issue's tags.
import { TRIAGE_LIMITS } from "../config/limits";
import { issueTags, userKey } from "../digest/event-facts";
import type { IssueStore, IssueTagSummary } from "../storage/issue-ports";
import { eventData } from "./event-data";
import { hourOf } from "./hours";
import { type IssueFrequency, dailyBuckets, dailyStatsSince, dayBuckets } from "./issue-stats";

/** The last 24 hours (hourly) and 30 days (daily) of the issue's stored events in `environment`. */
export async function issueFrequencyIn(store: IssueStore, issueId: number, environment: string, now = Date.now()): Promise<IssueFrequency> {
  const since = dailyStatsSince(30, now);
  const times = await store.issueEventTimesIn(issueId, environment, `${since}T00:00:00Z`);
  const hours = new Map<string, number>();
  const days = new Map<string, number>();
  for (const at of times) {
    const ms = Date.parse(at);
    if (Number.isNaN(ms)) continue;
    const hour = hourOf(ms);
    hours.set(hour, (hours.get(hour) ?? 0) + 1);
    const day = hour.slice(0, 10);
    days.set(day, (days.get(day) ?? 0) + 1);
  }
  return {
    "24h": dayBuckets(
      [...hours].map(([hour, count]) => ({ hour, count })),
      now,
    ),
    "30d": dailyBuckets(
      [...days].map(([day, count]) => ({ day, count })),
      30,
      now,
    ),
  };
}

/** Tag values of the issue's newest events in `environment`, most frequent first per key; `events`: how many were read. */
export async function issueTagsIn(store: IssueStore, issueId: number, environment: string): Promise<{ tags: IssueTagSummary[]; events: number }> {
  const events = await store.latestIssueEventsIn(issueId, environment, TRIAGE_LIMITS.environmentTagSample);
  const byKey = new Map<string, Map<string, { count: number; firstSeen: string; lastSeen: string }>>();
  for (const e of events) {
    const data = eventData(e);
    for (const [key, value] of issueTags(data, userKey(data))) {
      const values = byKey.get(key) ?? new Map();
      byKey.set(key, values);
      const seen = values.get(value);
      if (!seen) values.set(value, { count: 1, firstSeen: e.timestamp, lastSeen: e.timestamp });
      else {
        seen.count += 1;
        if (e.timestamp < seen.firstSeen) seen.firstSeen = e.timestamp;
        if (e.timestamp > seen.lastSeen) seen.lastSeen = e.timestamp;
      }
    }
  }
  const tags = [...byKey].map(([key, values]): IssueTagSummary => {
    const sorted = [...values].sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1));
    return {
      key,
      totalValues: sorted.reduce((n, [, v]) => n + v.count, 0),
      uniqueValues: sorted.length,
      topValues: sorted.slice(0, TRIAGE_LIMITS.tagTopValues).map(([value, v]) => ({ value, ...v })),
    };
  });
  return { tags: tags.sort((a, b) => (a.key < b.key ? -1 : 1)), events: events.length };
}
