// bench:ingest's @sentry/node payloads: structured log batches and cron check-ins.
import { SID, PAGES, WORDS, hex, pick } from "./payloads-common.mjs";

const NODE_SDK = { name: "sentry.javascript.node", version: "11.5.0" };
const LOG_LINES = [
  ["info", "order %s placed by customer %s"],
  ["info", "cache hit for %s"],
  ["debug", "query took %s ms"],
  ["warn", "retrying payment for order %s"],
  ["error", "payment provider answered %s"],
  ["info", "user %s signed in"],
  ["warn", "slow response from inventory: %s ms"],
  ["info", "sent invoice %s"],
];

/** A Node server's `log` item (@sentry/node 11 with enableLogs): 5 to 25 lines of one request, with the SDK's attributes. */
export function logBatch(rng, key, t) {
  const traceId = hex(rng, 32),
    spanId = hex(rng, 16),
    n = 5 + Math.floor(rng() * 21);
  const items = Array.from({ length: n }, (_, i) => {
    const [level, template] = pick(rng, LOG_LINES),
      a = String(1000 + Math.floor(rng() * 9000)),
      b = pick(rng, WORDS);
    return {
      timestamp: t - (n - i) * 0.01,
      level,
      body: template.replace("%s", a).replace("%s", b),
      trace_id: traceId,
      severity_number: { debug: 5, info: 9, warn: 13, error: 17 }[level],
      attributes: {
        "sentry.release": { value: "api@5.1.0", type: "string" },
        "sentry.environment": { value: "production", type: "string" },
        "sentry.sdk.name": { value: NODE_SDK.name, type: "string" },
        "sentry.sdk.version": { value: NODE_SDK.version, type: "string" },
        "sentry.message.template": { value: template, type: "string" },
        "sentry.message.parameter.0": { value: a, type: "string" },
        "sentry.message.parameter.1": { value: b, type: "string" },
        "sentry.trace.parent_span_id": { value: spanId, type: "string" },
        "user.id": { value: String(Math.floor(rng() * 500)), type: "string" },
        "http.route": { value: pick(rng, PAGES), type: "string" },
      },
    };
  });
  return [
    { sdk: NODE_SDK },
    [
      [
        { type: "log", item_count: n, content_type: "application/vnd.sentry.items.log+json" },
        { version: 2, items },
      ],
    ],
  ];
}

/** A cron check-in as @sentry/node's withMonitor sends it (check_in item with the monitor's config); a fresh id per send. */
export function checkIn(rng) {
  const slug = pick(rng, ["nightly-report", "sync-inventory", "send-digests", "cleanup-sessions"]);
  return [
    { sdk: NODE_SDK },
    [
      [
        { type: "check_in" },
        {
          check_in_id: SID,
          monitor_slug: slug,
          status: pick(rng, ["ok", "ok", "ok", "error"]),
          duration: Math.round(rng() * 3000) / 100,
          environment: "production",
          release: "api@5.1.0",
          monitor_config: { schedule: { type: "crontab", value: "*/5 * * * *" }, checkin_margin: 2, max_runtime: 10, timezone: "UTC" },
        },
      ],
    ],
  ];
}
