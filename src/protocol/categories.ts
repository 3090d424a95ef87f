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

/** Is this category one that SDK event quotas (key and project rate limits) apply to? */
export const EVENT_CATEGORIES: readonly DataCategory[] = ["error", "default", "security"];
