// Data categories of envelope items, as Relay counts them for rate limits and outcomes (relay-base-schema
// data_category.rs; JS DATA_CATEGORY_OVERRIDES). "internal" (client reports) is never rate-limited.
export type DataCategory =
  | "default"
  | "error"
  | "security"
  | "transaction"
  | "span"
  | "attachment"
  | "session"
  | "feedback"
  | "monitor"
  | "user_report_v2"
  | "profile"
  | "replay"
  | "log_item"
  | "log_byte"
  | "metric_bucket"
  | "internal";

/** The category of an item; events are "error" unless they carry no exception (then "default"), as Sentry counts. */
export function categoryOf(itemType: string, event?: Record<string, unknown>): DataCategory {
  switch (itemType) {
    case "event":
      return event && !hasException(event) ? "default" : "error";
    case "security":
    case "raw_security":
    case "nel":
      return "security";
    case "transaction":
      return "transaction";
    case "span":
    case "otel_span":
      return "span";
    case "attachment":
    case "staged_attachment":
      return "attachment";
    case "session":
    case "sessions":
      return "session";
    case "feedback":
      return "feedback";
    case "user_report":
      return "user_report_v2";
    case "check_in":
      return "monitor";
    case "profile":
    case "profile_chunk":
      return "profile";
    case "replay_event":
    case "replay_recording":
    case "replay_video":
      return "replay";
    case "log":
    case "otel_log":
      return "log_item";
    case "statsd":
    case "metric_buckets":
      return "metric_bucket";
    case "client_report":
      return "internal";
    default:
      return "default";
  }
}

function hasException(event: Record<string, unknown>): boolean {
  const exc = event.exception;
  if (Array.isArray(exc)) return exc.length > 0;
  if (exc && typeof exc === "object") {
    const values = (exc as { values?: unknown }).values;
    return Array.isArray(values) && values.length > 0;
  }
  return false;
}

/**
 * What one quota counts, by the name it has in Faultline's settings and API: each is Sentry's data category (its
 * rate-limit name in X-Sentry-Rate-Limits), and "error" is Sentry's error categories together, which its DSN rate
 * limit (`rateLimit` in the key API) counts. Attachments are counted in bytes, everything else one per item.
 */
export const QUOTA_CATEGORIES = {
  error: ["error", "default", "security"],
  transaction: ["transaction"],
  span: ["span"],
  attachment: ["attachment"],
  session: ["session"],
  feedback: ["feedback", "user_report_v2"],
  monitor: ["monitor"],
  /** Structured logs (issue 19), counted one per log line as Sentry's log_item. */
  log_item: ["log_item"],
  /** Client reports: never limited by Sentry, but a public DSN's reports could otherwise fill the spool unchecked. */
  internal: ["internal"],
} as const satisfies Record<string, readonly DataCategory[]>;

export type QuotaCategory = keyof typeof QUOTA_CATEGORIES;
export const QUOTA_CATEGORY_NAMES = Object.keys(QUOTA_CATEGORIES) as QuotaCategory[];

/** The quota an item of this category counts against; null for what no quota counts. */
export function quotaCategoryOf(category: DataCategory): QuotaCategory | null {
  for (const name of QUOTA_CATEGORY_NAMES) if ((QUOTA_CATEGORIES[name] as readonly DataCategory[]).includes(category)) return name;
  return null;
}
