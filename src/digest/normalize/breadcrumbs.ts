// Breadcrumbs (relay-event-schema protocol/breadcrumb.rs) and their normalization (relay-event-normalization
// event.rs `normalize_breadcrumbs`: type defaults to "default", level to "info"; timestamp.rs
// `TimestampProcessor::process_breadcrumb`: a breadcrumb before 1970 is removed).
import { ErrorSink } from "./errors";
import { type JsonObject } from "./json";
import { levelField } from "./levels";
import { MAX_BREADCRUMBS } from "./limits";
import { objectField, stringField } from "./strings";
import { timestampField } from "./timestamps";
import { objectItems, valuesField } from "./values";

/** Normalizes `event.breadcrumbs` into `{values: [...]}`, keeping the last MAX_BREADCRUMBS. */
export function normalizeBreadcrumbs(event: JsonObject, sink: ErrorSink): void {
  const values = valuesField(event, "breadcrumbs", sink);
  if (!values) return;
  const crumbs = objectItems(values, "breadcrumbs.values", sink);
  const kept: JsonObject[] = [];
  crumbs.forEach((crumb, i) => {
    const name = `breadcrumbs.values.${i}`;
    const ts = timestampField(crumb, "timestamp", `${name}.timestamp`, sink);
    if (ts !== undefined && ts < 0) {
      sink.add("invalid_data", name, undefined, { reason: "timestamp is too stale" });
      return;
    }
    for (const key of ["type", "category", "message", "event_id"]) stringField(crumb, key, name, sink);
    if (crumb.type === undefined || crumb.type === "") crumb.type = "default";
    levelField(crumb, `${name}.level`, sink, "info");
    objectField(crumb, "data", name, sink);
    kept.push(crumb);
  });
  values.splice(0, values.length, ...kept.slice(Math.max(0, kept.length - MAX_BREADCRUMBS)));
}
