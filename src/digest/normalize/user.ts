// The user interface (relay-event-schema protocol/user.rs; relay-event-normalization event.rs `normalize_user`:
// unknown keys move into `data`) and IP address backfilling (event.rs `normalize_ip_addresses`,
// `normalize_security_report`, `normalize_nel_report`).
import { isIP } from "node:net";
import { ErrorSink } from "./errors";
import { isObject, setOwn, type JsonObject } from "./json";
import { FIELD_CAPS } from "./limits";
import { lenientString, objectField, stringField, trimString } from "./strings";

const AUTO = "{{auto}}";
const USER_FIELDS = new Set(["id", "email", "ip_address", "username", "name", "sentry_user", "geo", "segment", "data"]);

/** Relay's `IpAddr::parse`: `{{auto}}` or an IPv4/IPv6 address. */
export function isIpAddress(value: string): boolean {
  return value === AUTO || isIP(value) !== 0;
}

/** Normalizes the fields of `event.user`. */
export function normalizeUser(event: JsonObject, sink: ErrorSink): void {
  const user = objectField(event, "user", "", sink);
  if (!user) return;
  for (const key of ["id", "username"]) {
    if (user[key] === undefined) continue;
    const value = lenientString(user[key]);
    if (value !== undefined) user[key] = trimString(value, FIELD_CAPS.userField.limit);
    else {
      if (user[key] !== null) sink.add("invalid_data", `user.${key}`, user[key], { reason: "expected a primitive value" });
      delete user[key];
    }
  }
  stringField(user, "email", "user", sink, { maxChars: FIELD_CAPS.userEmail });
  stringField(user, "name", "user", sink, { maxChars: FIELD_CAPS.userField });
  for (const key of ["sentry_user", "segment"]) stringField(user, key, "user", sink);
  if (user.ip_address !== undefined) {
    const ip = user.ip_address;
    if (typeof ip !== "string" || !isIpAddress(ip)) {
      if (ip !== null) sink.add("invalid_data", "user.ip_address", ip, { reason: "expected an ip address" });
      delete user.ip_address;
    }
  }
  objectField(user, "geo", "user", sink);
  objectField(user, "data", "user", sink);
  const others = Object.keys(user).filter((k) => !USER_FIELDS.has(k));
  if (others.length > 0) {
    const data = isObject(user.data) ? user.data : {};
    for (const k of others) {
      setOwn(data, k, user[k]);
      delete user[k];
    }
    user.data = data;
  }
}

function isSecurityReport(event: JsonObject, itemType: string): boolean {
  return itemType === "security" || ["csp", "hpkp", "expectct", "expectstaple"].some((k) => isObject(event[k]));
}

/** The event's user object, made when it has none. */
function userOf(event: JsonObject): JsonObject {
  if (!isObject(event.user)) event.user = {};
  return event.user as JsonObject;
}

/**
 * Relay's `normalize_ip_addresses` and the report backfills: security reports and NEL reports take the client IP;
 * `{{auto}}` in `user.ip_address` or `request.env.REMOTE_ADDR` becomes the client IP; a valid REMOTE_ADDR fills a
 * missing user IP; otherwise javascript, cocoa and objc events take the client IP when they have none.
 */
export function backfillIpAddresses(event: JsonObject, clientIp: string | null | undefined, itemType: string): void {
  const ip = clientIp && isIpAddress(clientIp) && clientIp !== AUTO ? clientIp : undefined;
  if (ip && (isSecurityReport(event, itemType) || (isObject(event.contexts) && isObject(event.contexts.nel)))) {
    userOf(event).ip_address = ip;
  }
  const env = isObject(event.request) && isObject(event.request.env) ? event.request.env : undefined;
  if (ip) {
    if (env && env.REMOTE_ADDR === AUTO) env.REMOTE_ADDR = ip;
    if (isObject(event.user) && event.user.ip_address === AUTO) event.user.ip_address = ip;
  }
  const httpIp = env && typeof env.REMOTE_ADDR === "string" && isIpAddress(env.REMOTE_ADDR) ? env.REMOTE_ADDR : undefined;
  if (httpIp) {
    const user = userOf(event);
    if (user.ip_address === undefined) user.ip_address = httpIp;
  } else if (ip) {
    const platform = event.platform;
    const hasIp = isObject(event.user) && event.user.ip_address !== undefined;
    if (!hasIp && (platform === "javascript" || platform === "cocoa" || platform === "objc")) userOf(event).ip_address = ip;
  }
}
