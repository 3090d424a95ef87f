// When a monitor's next check-in is expected: the crontab's next tick in the monitor's time zone (cron-parser, on
// luxon's IANA zones), or the interval added to the last check-in, each from the reference minute (Sentry's
// get_next_schedule, which works on the check-in's time with seconds dropped).
import { type CronExpression, CronExpressionParser } from "cron-parser";
import type { IntervalUnit, MonitorConfig } from "../storage/monitor-ports";
import { MONITOR_LIMITS } from "../config/limits";

const floorMinute = (ms: number) => ms - (((ms % 60_000) + 60_000) % 60_000);

/**
 * The latest expected check-in a schedule may name (epoch ms): its deadline (up to MONITOR_LIMITS.marginMax later) and
 * a timeout (runtimeMax) stay within four-digit years. Later instants are written `+010000-…` in ISO form, which sorts
 * before every four-digit year: such a deadline was due on every scheduler pass, and 275,760 years on the date itself
 * was invalid and stopped the pass for every monitor. A schedule whose next tick is later expects nothing more.
 */
export const LATEST_EXPECTED_MS = Date.parse("9999-01-01T00:00:00.000Z");

const withinYears = (d: Date | null): Date | null => (d !== null && d.getTime() <= LATEST_EXPECTED_MS ? d : null);

function addInterval(from: Date, count: number, unit: IntervalUnit): Date {
  const d = new Date(from.getTime());
  switch (unit) {
    case "minute":
      return new Date(d.getTime() + count * 60_000);
    case "hour":
      return new Date(d.getTime() + count * 3_600_000);
    case "day":
      d.setUTCDate(d.getUTCDate() + count);
      return d;
    case "week":
      d.setUTCDate(d.getUTCDate() + 7 * count);
      return d;
    case "month":
      d.setUTCMonth(d.getUTCMonth() + count);
      return d;
    case "year":
      d.setUTCFullYear(d.getUTCFullYear() + count);
      return d;
  }
}

/** The first expected check-in after `reference` (epoch ms); null when the schedule reads no time (never for a saved config). */
export function nextExpected(config: Pick<MonitorConfig, "scheduleType" | "schedule" | "intervalUnit" | "timezone">, reference: number): Date | null {
  const from = floorMinute(reference);
  if (config.scheduleType === "interval") {
    const count = Number(config.schedule);
    if (!Number.isInteger(count) || count < 1 || !config.intervalUnit) return null;
    // An invalid Date's time is NaN, which is never within.
    return withinYears(addInterval(new Date(from), count, config.intervalUnit));
  }
  const expression = parsedCrontab(config.schedule, config.timezone);
  if (!expression) return null;
  try {
    // The parsed crontab is reused: reset to the reference, then stepped once (synchronous, so never shared midway).
    expression.reset(new Date(from));
    return withinYears(expression.next().toDate());
  } catch {
    return null;
  }
}

/**
 * The crontab parsed in its zone, or null when it does not parse. Remembered (as the checks below): every finished
 * check-in asks for its monitor's next tick, and parsing the crontab again each time took a sixth of a check-in's
 * digest time (bench:digest's replay of check-ins alone, CPU profile).
 */
function parsedCrontab(schedule: string, timezone: string): CronExpression | null {
  const parse = () => {
    try {
      return CronExpressionParser.parse(schedule, { tz: timezone });
    } catch {
      return null;
    }
  };
  if (schedule.length > MONITOR_LIMITS.crontabMaxLength || timezone.length > MONITOR_LIMITS.timezoneMaxLength) return parse();
  return remembered(parsedCrontabs, `${timezone}\u0000${schedule}`, parse);
}

/** The deadline of an expected check-in: its time plus the margin in minutes (Sentry's next_checkin_latest). */
export const deadlineOf = (expected: Date, marginMinutes: number | null): Date =>
  new Date(expected.getTime() + (marginMinutes ?? MONITOR_LIMITS.marginDefault) * 60_000);

/** A crontab Sentry would take: five fields (no seconds) or a nickname, each in range. Null when valid, else why not. */
export function crontabProblem(value: string, timezone: string): string | null {
  // Only strings of a schedule's length are remembered: a hostile config must not fill the memory with its keys.
  if (value.length > MONITOR_LIMITS.crontabMaxLength || timezone.length > MONITOR_LIMITS.timezoneMaxLength) return crontabProblemOf(value, timezone);
  return remembered(crontabAnswers, `${timezone}\u0000${value}`, () => crontabProblemOf(value, timezone));
}

// These depend on their arguments alone (and the runtime's zone data): remembered, a bounded number of each.
const crontabAnswers = new Map<string, string | null>();
const parsedCrontabs = new Map<string, CronExpression | null>();
const zoneAnswers = new Map<string, boolean>();

function remembered<T>(answers: Map<string, T>, key: string, answer: () => T): T {
  if (answers.has(key)) return answers.get(key) as T;
  const value = answer();
  if (answers.size >= MONITOR_LIMITS.schedulesRemembered) answers.clear();
  answers.set(key, value);
  return value;
}

function crontabProblemOf(value: string, timezone: string): string | null {
  const fields = value.trim().split(/\s+/);
  if (!value.trim().startsWith("@") && fields.length !== 5) return "a crontab has five fields: minute, hour, day of month, month and day of week";
  try {
    CronExpressionParser.parse(value, { tz: timezone }).next();
    return null;
  } catch (err) {
    return `not a valid crontab: ${String((err as Error).message).slice(0, 200)}`;
  }
}

/** Whether the name is an IANA time zone this runtime knows. */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > MONITOR_LIMITS.timezoneMaxLength) return false;
  return remembered(zoneAnswers, name, () => knownZone(name));
}

function knownZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
