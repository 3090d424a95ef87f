// Alerts and notifications: issue and metric alert rules, delivering the outbox, personal notices, outgoing mail.
// Each limit with its unit and the reason for its value; config/limits.ts gathers the files.

export const ALERT_RULE_LIMITS = {
  /**
   * rules per project; the digest evaluates every active rule of a project for each issue a batch touches, so the
   * number bounds that work (issue 17 measures the digest with 50 rules per project; twice that is still cheap).
   */
  rulesPerProject: 100,
  /** characters; a rule's name (Sentry's RuleSerializer `name`, max_length 256). */
  nameMaxLength: 256,
  /** characters; an environment's name (Sentry's RuleSerializer `environment`, max_length 64). */
  environmentMaxLength: 64,
  /** nodes; conditions, filters and actions of one rule each. Sentry sets none; more than this is a mistake, not a rule. */
  nodesPerList: 20,
  /** minutes; the least and most time between two notifications of a rule for one issue (Sentry: 5 to 43,200). */
  frequencyMin: 5,
  frequencyMax: 60 * 24 * 30,
  /** minutes; a new rule's frequency when none is given (Sentry's default rule and form: 30). */
  frequencyDefault: 30,
  /**
   * events or users; the largest threshold of a frequency condition or of "issue occurrences". Well past any real
   * count in an interval, and far inside the integers both dialects and JSON keep exactly.
   */
  countMax: 1_000_000_000,
  /** units of `time` (minutes … weeks); the age filter's largest value (about 19 years in weeks). */
  ageMax: 1_000,
  /** characters; a tag key (Sentry's tag keys: 200) and a tag value or list to compare with (Sentry's values: 200; lists longer). */
  tagKeyMaxLength: 200,
  tagValueMaxLength: 1_000,
  /** characters; a webhook URL. Browsers and proxies agree on 2,048; no receiver needs more. */
  webhookUrlMaxLength: 2_048,
  /** projects; rule sets kept in the digest's cache (each checked with one cheap query per batch before use). */
  cachedProjects: 1_000,
  /** notifications; a rule's history and the project's failing deliveries, newest first, per page. */
  historyPageSize: 50,
} as const;

/** Metric alerts (issue 17): thresholds on the organization's counters, evaluated every minute. */
export const METRIC_ALERT_LIMITS = {
  /** milliseconds; how often rules are evaluated, as Sentry's subscriptions (one value per rule and minute). */
  evaluationIntervalMs: 60_000,
  /** minutes; the evaluation windows offered, Sentry's (1 minute to 1 day). */
  timeWindowsMinutes: [1, 5, 10, 15, 30, 60, 120, 240, 1440],
  /** rules per organization; each is evaluated every minute, so the number bounds the minute's work. */
  maxRulesPerOrganization: 100,
  /** actions per trigger; one outbox row each per state change. */
  maxActionsPerTrigger: 10,
  /** characters; a rule's name (Sentry's alert names run long: what, where, how much). */
  maxNameLength: 256,
  /** characters; the query (a few `key:value` terms). */
  maxQueryLength: 200,
  /** characters; a webhook URL of an action. */
  maxUrlLength: 2048,
  /** hours; the values each evaluation saw, kept for the chart (24 hours shown, a day's margin). */
  valuesKeptHours: 48,
  /** state changes; the history a rule's page and API list, newest first. */
  historyShown: 100,
  /** rules; evaluated per pass of one process, so a pass is bounded however many rules are due. */
  rulesPerPass: 500,
} as const;

/** Delivering the notification outbox (notify/): webhooks, chat services, e-mail. */
export const NOTIFICATION_LIMITS = {
  /** milliseconds; how often an idle sender looks for due notifications when nothing woke it (the digest wakes it at once). */
  pollMs: 500,
  /** notifications per claim; delivered side by side, so a slow receiver holds up no more than these few. */
  batchSize: 10,
  /**
   * milliseconds; how long a claim holds a notification for its sender. Far longer than a delivery may take (one
   * request's time limit, an SMTP exchange), so a live sender never loses its claim; a crashed sender's claims pass
   * after this, and another sender delivers them (the receiver may then see the key twice: at least once).
   */
  claimMs: 60_000,
  /** milliseconds; one webhook request, connect to last byte (Sentry gives its webhooks 3 s; chat services answer in well under 1 s). */
  requestTimeoutMs: 5_000,
  /** bytes; the most of a receiver's answer read (the rest is dropped); answers are a status line for us. */
  responseMaxBytes: 64 * 1024,
  /** bytes; the first bytes of an answer kept in the history of a notification (notification_attempts). */
  responseExcerptBytes: 1024,
  /** milliseconds; the first retry's delay; each further one doubles it. */
  retryBaseMs: 15_000,
  /** milliseconds (1 hour); no wait between two attempts is longer, so a receiver back after an outage hears soon. */
  retryMaxDelayMs: 60 * 60 * 1000,
  /** ratio; each delay is spread by ± this much, so the retries of many notifications do not arrive at once. */
  retryJitter: 0.2,
  /** milliseconds (24 hours); a notification not delivered by this long after it was decided is marked failed. */
  maxAgeMs: 24 * 60 * 60 * 1000,
  /** characters; the error kept with a failed attempt or notification. */
  errorMaxChars: 500,
  /** characters; Slack: a section's text (Block Kit's limit 3000) and a header's (150). */
  slackSectionChars: 3000,
  slackHeaderChars: 150,
  /** characters; Discord embeds: title 256, description 4096, field value 1024, all of a message's embeds 6000. */
  discordTitleChars: 256,
  discordDescriptionChars: 4096,
  discordFieldChars: 1024,
  discordTotalChars: 6000,
  /** bytes; Teams workflow messages: about 28 KB with the card; the text in one card is kept well under it. */
  teamsTextChars: 8000,
  /** milliseconds; each step of an SMTP exchange (connect, greeting, each reply): well inside a claim (nodemailer waits minutes by default). */
  smtpTimeoutMs: 15_000,
  /** characters; an e-mail's subject line (RFC 5322 suggests lines under 78; clients cut long subjects anyway). */
  mailSubjectChars: 200,
  /** characters; an event's message or an issue's title in a message body. */
  messageChars: 2000,
  /**
   * characters; a user feedback's message as a notification keeps it (the stored feedback holds up to 16,384): whole
   * for nearly all feedback (the widget's are a few sentences), within Discord's 4,096-character description, and a
   * megabyte typed into a crash-report form still makes a small outbox row; each service then cuts to its own limit.
   */
  feedbackMessageChars: 4000,
} as const;

/** Personal notifications: workflow notices and the weekly summary (issue 17, "People"). */
export const PERSONAL_NOTIFICATION_LIMITS = {
  /** characters (2,000); of a comment carried in a workflow notice: enough for a mail's body, the issue page has the rest. */
  noticeTextChars: 2000,
  /** issues (5); the most frequent issues a weekly summary lists, as Sentry's weekly report does. */
  summaryTopIssues: 5,
  /** hour of the day (8), in the person's time zone, from which Monday's summary is due: read at the start of the working day. */
  summaryDueHour: 8,
  /**
   * hours (24); how long after Monday's due hour a summary not yet written is still written (a server down on Monday
   * morning sends it once it is back that day), but never a week late.
   */
  summaryDueWindowHours: 24,
  /** milliseconds (5 minutes); between the scheduler's looks for summaries that are due: a summary is at most this late. */
  summaryIntervalMs: 5 * 60_000,
  /** characters (64); of an IANA time zone name (the longest, America/Argentina/ComodRivadavia, has 32). */
  timeZoneMaxLength: 64,
} as const;

export const MAIL_LIMITS = {
  /** characters; a subject longer than this is cut (renderLayout) or refused (send): a line in a mail list stays readable. */
  subjectMaxChars: 200,
  /** recipients per message; alert mail goes one message per person, so more than this is a caller's mistake. */
  recipientsMax: 50,
  /** bytes (512 KiB) per part (text, HTML); alert and account mail is a few KiB, so a larger part is bad input. */
  partMaxBytes: 512 * 1024,
  /** custom headers per message (e.g. List-Unsubscribe, X-Faultline-*); a handful is all any caller needs. */
  headersMax: 20,
  /** characters per custom header value; RFC 5322's line limit (998), before folding. */
  headerValueMaxChars: 998,
  /** paragraphs per renderLayout call; more are dropped, so a huge list of lines cannot make a huge mail. */
  paragraphsMax: 50,
  /** characters per paragraph in renderLayout; longer ones are cut with "…" (an event's message can be megabytes). */
  paragraphMaxChars: 4000,
  /** milliseconds (10 s) to open the TCP (and TLS) connection to the SMTP server before giving up on this attempt. */
  connectionTimeoutMs: 10_000,
  /** milliseconds (10 s) to wait for the server's greeting once connected. */
  greetingTimeoutMs: 10_000,
  /** milliseconds (30 s) of silence on an open SMTP connection before it is dropped (and an idle pooled one closed). */
  socketTimeoutMs: 30_000,
  /** connections kept to the SMTP server; alert bursts go out in parallel without opening a connection per message. */
  poolConnections: 3,
} as const;
