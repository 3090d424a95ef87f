// Timestamp parsing (relay-event-schema protocol/types.rs `impl FromValue for Timestamp`: RFC 3339, naïve ISO read
// as UTC, numbers of seconds, years above 9999 rejected) and the event's timestamp range check with clock drift
// correction (relay-event-normalization event.rs `normalize_timestamps`, clock_drift.rs `ClockDriftProcessor`).
import { ErrorSink } from "./errors";
import { isNumber, isObject, type JsonObject } from "./json";
import { MAX_SECS_IN_FUTURE, MAX_SECS_IN_PAST, MAX_TIMESTAMP_YEAR } from "./limits";

export type ParsedTimestamp = { ok: true; seconds: number } | { ok: false; reason: string };

const ISO = /^(\d{4,})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;
// The largest instant a JavaScript Date holds, in seconds.
const MAX_DATE_SECS = 8.64e12;

/**
 * Rounds to microseconds, as Relay's `datetime_to_timestamp` does when it writes a timestamp. A tiny negative input
 * rounds to -0, which JSON writes as 0; `+ 0` turns it into 0 so the stored event reads back equal.
 */
export function roundMicros(seconds: number): number {
  return Math.round(seconds * 1e6) / 1e6 + 0;
}

function fromSeconds(seconds: number): ParsedTimestamp {
  if (!Number.isFinite(seconds) || Math.abs(seconds) > MAX_DATE_SECS) return { ok: false, reason: "timestamp out of range" };
  const year = new Date(Math.floor(seconds) * 1000).getUTCFullYear();
  if (year > MAX_TIMESTAMP_YEAR) return { ok: false, reason: "timestamp out of range" };
  return { ok: true, seconds: roundMicros(seconds) };
}

function fromString(text: string): ParsedTimestamp {
  const m = ISO.exec(text);
  if (!m) return { ok: false, reason: "input contains invalid characters" };
  const [, y, mo, d, h, mi, s, frac, tz] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (year > MAX_TIMESTAMP_YEAR) return { ok: false, reason: "timestamp out of range" };
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(ms);
  // Date.UTC maps years 0..99 to 1900..1999; set the full year explicitly.
  check.setUTCFullYear(year, month - 1, day);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return { ok: false, reason: "input is out of range" };
  }
  let offsetSecs = 0;
  if (tz && tz !== "Z" && tz !== "z") {
    const sign = tz.startsWith("-") ? -1 : 1;
    const digits = tz.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2, 4));
    if (oh > 23 || om > 59) return { ok: false, reason: "input is out of range" };
    offsetSecs = sign * (oh * 3600 + om * 60);
  }
  const fraction = frac ? Number(`0${frac.slice(0, 10)}`) : 0;
  return fromSeconds(check.getTime() / 1000 - offsetSecs + fraction);
}

/** Parses a timestamp as Relay does; `undefined` when absent (null or missing). */
export function parseTimestamp(value: unknown): ParsedTimestamp | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return fromString(value);
  if (isNumber(value)) return fromSeconds(value);
  return { ok: false, reason: "expected a timestamp" };
}

/** Reads `obj[key]` as a timestamp in seconds; an invalid one is removed with `invalid_data`. */
export function timestampField(obj: JsonObject, key: string, name: string, sink: ErrorSink): number | undefined {
  const parsed = parseTimestamp(obj[key]);
  if (parsed === undefined) {
    delete obj[key];
    return undefined;
  }
  if (!parsed.ok) {
    sink.add("invalid_data", name, obj[key], { reason: parsed.reason });
    delete obj[key];
    return undefined;
  }
  obj[key] = parsed.seconds;
  return parsed.seconds;
}

function rfc3339(seconds: number): string {
  return new Date(Math.round(seconds * 1000)).toISOString().replace("Z", "+00:00");
}

function shift(obj: JsonObject, key: string, delta: number): void {
  const v = obj[key];
  if (typeof v === "number") obj[key] = roundMicros(v + delta);
}

/**
 * Relay's `normalize_timestamps`: parses `timestamp` and `start_timestamp`; a timestamp more than
 * MAX_SECS_IN_FUTURE ahead of or MAX_SECS_IN_PAST behind the receive time is treated as clock drift: every
 * timestamp of the event (start_timestamp, breadcrumbs, spans) is shifted by the drift, so `timestamp` becomes the
 * receive time, and a `future_timestamp`/`past_timestamp` error carries `sdk_time` and `server_time`. A missing
 * timestamp becomes the receive time. `received` is set to the receive time.
 */
export function normalizeTimestamps(event: JsonObject, receivedSecs: number, sink: ErrorSink): void {
  const timestamp = timestampField(event, "timestamp", "timestamp", sink);
  timestampField(event, "start_timestamp", "start_timestamp", sink);

  if (timestamp !== undefined) {
    let kind: "future_timestamp" | "past_timestamp" | undefined;
    if (timestamp > receivedSecs + MAX_SECS_IN_FUTURE) kind = "future_timestamp";
    else if (timestamp < receivedSecs - MAX_SECS_IN_PAST) kind = "past_timestamp";
    if (kind) {
      const delta = receivedSecs - timestamp;
      shift(event, "timestamp", delta);
      shift(event, "start_timestamp", delta);
      // The shift can move a breadcrumb or span before 1970; Relay's stale-timestamp rule then removes it.
      const stale = (item: JsonObject, name: string, keys: string[]): boolean => {
        for (const key of keys) shift(item, key, delta);
        const isStale = keys.some((key) => typeof item[key] === "number" && (item[key] as number) < 0);
        if (isStale) sink.add("invalid_data", name, undefined, { reason: "timestamp is too stale" });
        return isStale;
      };
      const crumbs = isObject(event.breadcrumbs) ? event.breadcrumbs.values : undefined;
      if (Array.isArray(crumbs)) {
        const kept = crumbs.filter((c, i) => !isObject(c) || !stale(c, `breadcrumbs.values.${i}`, ["timestamp"]));
        crumbs.splice(0, crumbs.length, ...kept);
      }
      if (Array.isArray(event.spans)) {
        const spans = event.spans as unknown[];
        const kept = spans.filter((s, i) => !isObject(s) || !stale(s, `spans.${i}`, ["timestamp", "start_timestamp"]));
        spans.splice(0, spans.length, ...kept);
      }
      sink.add(kind, "timestamp", undefined, { sdk_time: rfc3339(timestamp), server_time: rfc3339(receivedSecs) });
    }
  }
  event.received = roundMicros(receivedSecs);
  if (typeof event.timestamp !== "number") event.timestamp = roundMicros(receivedSecs);
}
