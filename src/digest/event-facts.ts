// What an issue and its counters take from a normalized event, as Sentry takes it: the issue metadata shown in lists
// (eventtypes/error.py, base.py, security.py), the culprit from the stack trace (utils/event.py `get_culprit`),
// the user an event counts for (EventUser's tag value), and the tags counted per issue.
import { DIGEST_LIMITS } from "../config/limits";
import type { Pair } from "./normalize";
import { MAX_CHARS } from "./normalize/limits";
import { trimString } from "./normalize/strings";
import { exceptionValues } from "./summary";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : null);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v : typeof v === "number" ? String(v) : null);

/** characters; tag values are capped like Relay caps them. */
const MAX_TAG_VALUE = 200;

function framesOf(exception: Json | undefined): Json[] {
  const frames = obj(exception?.stacktrace)?.frames;
  const out: Json[] = [];
  if (!Array.isArray(frames)) return out;
  for (const f of frames) {
    const frame = obj(f);
    if (frame !== null) out.push(frame);
  }
  return out;
}

/** The frame an issue is blamed on: the newest in-app frame, else the newest frame. */
function blamedFrame(event: Json): Json | null {
  const exceptions = exceptionValues(event);
  const frames = framesOf(exceptions[exceptions.length - 1]);
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i]!.in_app === true) return frames[i]!;
  return frames[frames.length - 1] ?? null;
}

/**
 * Sentry's culprit from the stack trace (Frame.get_culprit_string): "function(file)" for JavaScript and Node,
 * the function alone for native code, "module in function" elsewhere; the frame's platform wins over the event's.
 * Truncated to 200 characters as Sentry truncates it (utils/event.py `get_culprit`, MAX_CULPRIT_LENGTH).
 */
export function stacktraceCulprit(event: Json): string {
  return trimString(frameCulprit(event), MAX_CHARS.culprit);
}

function frameCulprit(event: Json): string {
  const frame = blamedFrame(event);
  if (!frame) return "";
  const platform = text(frame.platform) ?? text(event.platform) ?? "";
  const fn = text(frame.function);
  if (["objc", "cocoa", "native"].includes(platform)) return fn ?? "?";
  const where = text(frame.module) ?? text(frame.filename);
  if (!where) return "";
  return platform === "javascript" || platform === "node" ? `${fn ?? "?"}(${where})` : `${where} in ${fn ?? "?"}`;
}

/** The metadata an issue list shows, by event type. */
export function issueMetadata(type: string, title: string, event: Json): Json {
  if (type === "error") {
    const exceptions = exceptionValues(event);
    const main = exceptions[exceptions.length - 1] ?? {};
    const frame = blamedFrame(event);
    const metadata: Json = { type: text(main.type) ?? "Error", value: text(main.value) ?? "" };
    if (frame && text(frame.filename)) metadata.filename = text(frame.filename);
    if (frame && text(frame.function)) metadata.function = text(frame.function);
    metadata.in_app_frame_mix = inAppMix(framesOf(main));
    return metadata;
  }
  if (type === "csp" || type === "expectct") {
    const csp = obj(event.csp) ?? {};
    return { directive: text(csp.effective_directive) ?? text(csp.violated_directive) ?? "", uri: text(csp.blocked_uri) ?? "", message: title };
  }
  return { title };
}

function inAppMix(frames: Json[]): "in-app-only" | "system-only" | "mixed" {
  const inApp = frames.filter((f) => f.in_app === true).length;
  if (inApp === frames.length && inApp > 0) return "in-app-only";
  return inApp === 0 ? "system-only" : "mixed";
}

/** The user an event counts for: "id:…", "email:…", "username:…" or "ip:…", the first one the event has. */
export function userKey(event: Json): string | null {
  const user = obj(event.user);
  if (!user) return null;
  for (const [field, prefix] of [
    ["id", "id"],
    ["email", "email"],
    ["username", "username"],
    ["ip_address", "ip"],
  ] as const) {
    const value = text(user[field]);
    if (value && value !== "{{auto}}") return `${prefix}:${value}`.slice(0, MAX_TAG_VALUE);
  }
  return null;
}

function contextTag(event: Json, context: string): [string, string][] {
  const c = obj(obj(event.contexts)?.[context]);
  const name = text(c?.name);
  if (!name) return [];
  const version = text(c?.version);
  return [
    [`${context}.name`, name],
    [context, version ? `${name} ${version}` : name],
  ];
}

/**
 * Adds the tag `key` with `value` when it is text and the event does not set that tag itself. At module level, as the
 * digest's other per-event helpers: a closure made per event would be compiled again after each full collection
 * (storage/kysely/batch-rows.ts sumBy).
 */
function addTag(tags: [string, string][], key: string, value: unknown): void {
  const v = text(value);
  if (!v) return;
  for (const [k] of tags) if (k === key) return;
  tags.push([key, v]);
}

const cutTag = ([k, v]: [string, string]): [string, string] => [k.slice(0, MAX_TAG_VALUE), v.slice(0, MAX_TAG_VALUE)];

/** The tags an issue counts values of: the event's own, and the ones Sentry derives (level, release, user, browser…). */
export function issueTags(event: Json, user: string | null): [string, string][] {
  const tags: [string, string][] = [];
  const own = Array.isArray(event.tags) ? (event.tags as Pair[]) : [];
  for (const pair of own) {
    if (tags.length === DIGEST_LIMITS.tagsPerEvent) break;
    if (Array.isArray(pair) && typeof pair[0] === "string" && typeof pair[1] === "string") tags.push([pair[0], pair[1]]);
  }
  addTag(tags, "level", event.level);
  addTag(tags, "logger", event.logger);
  addTag(tags, "release", event.release);
  addTag(tags, "environment", event.environment);
  addTag(tags, "transaction", event.transaction);
  addTag(tags, "url", obj(event.request)?.url);
  if (user) addTag(tags, "user", user);
  for (const context of ["browser", "os", "runtime", "device"]) for (const [k, v] of contextTag(event, context)) addTag(tags, k, v);
  const mechanism = obj(exceptionValues(event).at(-1)?.mechanism);
  if (mechanism) {
    addTag(tags, "mechanism", mechanism.type);
    if (typeof mechanism.handled === "boolean") addTag(tags, "handled", mechanism.handled ? "yes" : "no");
  }
  return tags.map(cutTag);
}
