// The dashboard: live streams, pages, the build's budget, and Faultline reporting to itself.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const STREAM_LIMITS = {
  /** issues; one page of the dashboard's issue stream (each row draws a sparkline from one batched read). */
  pageSize: 25,
  /** projects; the most an organization-wide stream spans (and lists in its project picker). */
  maxProjects: 500,
  /** milliseconds; how often the live stream polls the database for new issues and changed counts. */
  pollIntervalMs: 2000,
  /** milliseconds (5 min); a live stream closes after this and the browser reconnects, so no request lives forever. */
  maxConnectionMs: 5 * 60 * 1000,
  /** issues; new issues counted per poll ("100+ new issues" beyond). */
  newIssuesCap: 100,
  /** issues; the most issues one live stream watches for changed counts (a page holds fewer). */
  maxWatchedIssues: 100,
  /** values; releases and environments offered by the search suggestions. */
  suggestionValues: 50,
  /**
   * characters; the longest issue search (`query`) the API and the issue stream take. A search of fifty terms fits;
   * percent-encoded it still makes a URL under 8 KB, which every proxy passes. The parser reads a search in one pass,
   * and the live stream parses it again on every poll, so its length is the work each poll does.
   */
  maxQueryLength: 2000,
  /**
   * terms; words and `key:value` terms of one issue search, and values of one `[a, b]` list. Each is a condition of
   * the query; a thousand one-letter words fit in maxQueryLength and made SQLite refuse the statement ("Expression
   * tree is too large", a 500). Sentry's search box holds a handful.
   */
  maxQueryTerms: 50,
  /**
   * connections; live streams one user may hold open at once, one per open issue-stream page. Browsers open at most
   * 6 connections per host over HTTP/1.1, so more come only through an HTTP/2 proxy; past this the user's oldest
   * stream ends (its page says so and stops updating), so the newest tab always updates.
   */
  maxStreamsPerUser: 8,
} as const;

/** The release, settings and invitation screens of the dashboard. */
export const DASHBOARD_LIMITS = {
  /** releases; one page of the releases list (each row counts its events with one indexed query). */
  releasesPageSize: 25,
  /** issues; the new issues a release page lists (the issue stream shows the rest with `release:`). */
  releaseNewIssues: 50,
  /** days; the release page's session chart, one bar per day (hourly counters are kept as long as the retention). */
  releaseChartDays: 30,
  /** days; an invitation link is accepted this long after it is made, so a leaked old link opens nothing. */
  invitationDays: 7,
} as const;

export const BUILD_LIMITS = {
  /**
   * bytes (110 kB, gzipped, kB = 1000 bytes as Next.js prints it); the JavaScript a browser downloads before a route
   * of the app router (the dashboard, the docs) is interactive. React and Next.js's runtime take about 90 kB of it, so
   * the dashboard's own client code stays small: texts are translated on the server (no message parser in the
   * browser), and big libraries (charts) load after hydration. Checked by tests/build/bundle-budget.test.ts.
   */
  firstLoadJsGzipBytes: 110 * 1000,
  /**
   * bytes (135 kB, gzipped); the same for the pages router's fallback pages (/404, /500, /_error), which Next.js
   * serves when routing fails before the app router: they carry the pages router's own runtime (about 40 kB) beside
   * React's.
   */
  pagesFallbackJsGzipBytes: 135 * 1000,
} as const;

/** The first-load budget of a route: the app router's, or the pages router's fallback pages'. */
export const firstLoadBudget = (router: "app" | "pages"): number =>
  router === "app" ? BUILD_LIMITS.firstLoadJsGzipBytes : BUILD_LIMITS.pagesFallbackJsGzipBytes;

/** Faultline reporting its own errors and page loads into its internal project (self-monitoring). */
export const SELF_MONITORING_LIMITS = {
  /**
   * bytes (2 MiB); an envelope posted to the browser tunnel (`/monitoring`). The browser SDK sends one event (at most
   * 1 MiB, Relay's max_event_size) or a page load's spans per envelope, uncompressed; anything larger is no envelope
   * of Faultline's own pages, so it is refused with 413 before it is read further.
   */
  maxTunnelBodyBytes: 2 * 1024 * 1024,
  /**
   * fraction (0.1); of page loads whose timing is sent by default. Every page load of every user would otherwise add
   * an envelope per page view to the install's own intake; a tenth shows the timing's distribution just as well.
   */
  defaultTracesSampleRate: 0.1,
  /** fraction (1); of Faultline's own errors sent by default: each one is worth seeing. */
  defaultErrorSampleRate: 1,
  /**
   * milliseconds (2,000); after the server starts, when the server's SDK and the services it reports through (about
   * 2.5 MB of bundle, half a second of loading on a 2-core machine) are loaded, unless an error to report comes first.
   * Loading them at start held up the first page by that much (bench:start). Errors until then wait for them (should
   * they fail to start, errors are logged as always, and the next one tries again).
   */
  serverSdkDelayMs: 2_000,
  /**
   * The internal project's DSN key's quotas unless set on the key itself: its DSN is in every page of Faultline,
   * sign-in included, so anyone can send with it, and these keep what they can send small. Each is many times what
   * a busy install's own pages send: an error is worth a look at 100 a minute already, page loads are sampled at
   * 10 %, and the browser SDK sends one session per page load and a few web-vital spans per page.
   */
  internalKeyQuotas: {
    error: { count: 100, windowSeconds: 60 },
    transaction: { count: 300, windowSeconds: 60 },
    span: { count: 3000, windowSeconds: 60 },
    session: { count: 600, windowSeconds: 60 },
    /** bytes; Faultline's pages send no attachments. */
    attachment: { count: 1024 * 1024, windowSeconds: 3600 },
    feedback: { count: 30, windowSeconds: 3600 },
    /** Faultline's pages have no cron monitors. */
    monitor: { count: 60, windowSeconds: 3600 },
    /** log lines; Faultline's own pages do not turn on enableLogs. */
    log_item: { count: 600, windowSeconds: 3600 },
    /** client reports; the browser SDK sends one now and then, with the discards it saved up. */
    internal: { count: 120, windowSeconds: 60 },
  },
} as const;
