// Cron monitors (issue 19): what a check-in and a monitor's configuration may hold, and how the scheduler works.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const MONITOR_LIMITS = {
  /** characters; a monitor's slug (Relay's relay-monitors SLUG_LENGTH and Sentry's MAX_SLUG_LENGTH: 50). */
  slugMaxLength: 50,
  /** characters; a monitor's name (Sentry's Monitor.name, max_length 128). */
  nameMaxLength: 128,
  /** characters; a check-in's environment (Sentry's Environment.name, max_length 64). */
  environmentMaxLength: 64,
  /** characters; a crontab expression. Five fields with lists fit easily; a longer string is no schedule. */
  crontabMaxLength: 100,
  /** characters; an IANA time zone name ("America/Argentina/ComodRivadavia" is 32). */
  timezoneMaxLength: 64,
  /**
   * entries, in each of three memories: crontab and time zone answers, and parsed crontabs, that the digest remembers
   * (core/monitor-schedule.ts). Every check-in that carries its monitor's config is checked again, and every finished
   * one asks for the next tick: parsing a crontab in its zone cost about 1.5 % of the digest's time with bench:ingest's
   * mix (2 % of requests are check-ins), and the parse for the next tick a sixth of a check-in's. An install has about
   * as many schedules as monitors.
   */
  schedulesRemembered: 1_000,
  /** units; an interval schedule's count (Sentry accepts any positive integer; 10,000 years is beyond any job). */
  intervalMax: 10_000,
  /** minutes; the check-in margin and the maximum runtime (Sentry's MAX_TIMEOUT: 40,320, 28 days). */
  marginMax: 40_320,
  runtimeMax: 40_320,
  /** minutes; the margin when none is configured (Sentry's DEFAULT_CHECKIN_MARGIN). */
  marginDefault: 1,
  /** minutes; the runtime after which an in-progress check-in times out when none is configured (Sentry's TIMEOUT). */
  runtimeDefault: 30,
  /** check-ins; the failure and recovery thresholds (Sentry's MAX_THRESHOLD: 720). */
  thresholdMax: 720,
  /** milliseconds; a check-in's duration (28 days, the longest runtime a monitor may have, with room to spare). */
  durationMaxMs: 40_320 * 60_000 * 2,
  /** monitors per organization; each is a row the scheduler visits, and a runaway SDK loop upserts a slug each time. */
  monitorsPerOrganization: 1_000,
  /**
   * milliseconds; how often the scheduler looks for missed check-ins and timeouts. A deadline is found at most this
   * long after it passed, plus the digest's moment for the failure event: well inside the 30 seconds promised.
   */
  schedulerIntervalMs: 10_000,
  /** rows; missed deadlines and timeouts handled per pass each (the next pass, 10 s later, takes the rest). */
  scheduledPerPass: 500,
  /** check-ins; deleted per statement once they are older than FAULTLINE_RETENTION_DAYS (a short write, as retention's). */
  pruneChunk: 500,
  /** milliseconds; how often the scheduler looks for check-ins past retention (hourly: they age by days). */
  pruneIntervalMs: 3_600_000,
  /** check-ins; the timeline of each environment on the monitors list. */
  timelineLength: 30,
  /** check-ins; a monitor's page (its chart and list). */
  detailCheckIns: 100,
} as const;
