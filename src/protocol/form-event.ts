// The event a multipart upload's form fields describe, as Relay builds it (relay-server processing: merge_formdata):
// a `sentry` field (or `sentry___<namespace>`) holds event JSON, merged in; `sentry__1`, `sentry__2`… are chunks of one
// JSON event (the Electron SDK splits long payloads), joined in order; `sentry[key][key]=value` sets a nested string
// (Breakpad's annotations stop at 64 characters, so its clients send the event key by key); any other field becomes
// `extra.<field>` (Crashpad's and Breakpad's own annotations: product, version, plat, ptime…).
import { parseJsonObjectOrNull } from "./json";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Relay's merge_values: objects merge key by key, anything else replaces. */
function merge(target: Json, source: Json): void {
  for (const [k, v] of Object.entries(source)) {
    if (k === "__proto__") continue;
    const had = target[k];
    if (isObject(had) && isObject(v)) merge(had, v);
    else target[k] = v;
  }
}

/** `sentry[a][b]` → ["a", "b"]; null for any other name (Relay's get_sentry_entry_indexes). */
function bracketPath(name: string): string[] | null {
  const m = /^sentry((?:\[[^[\]]*\])+)$/.exec(name);
  if (!m) return null;
  const keys = [...m[1]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!);
  return keys.length > 0 && keys.length <= 16 && keys.every((k) => k !== "" && k !== "__proto__") ? keys : null;
}

function setNested(target: Json, keys: string[], value: string): void {
  let at = target;
  for (const key of keys.slice(0, -1)) {
    const next = at[key];
    if (isObject(next)) at = next;
    else at = at[key] = {};
  }
  at[keys[keys.length - 1]!] = value;
}

const parseObject = (text: string): Json | null => parseJsonObjectOrNull(Buffer.from(text, "utf8"));

/** The event of the fields, in order; {} when they say nothing. */
export function eventFromForm(fields: readonly (readonly [string, string])[]): Json {
  const event: Json = {};
  const chunks = new Map<number, string>();
  for (const [name, value] of fields) {
    if (name === "sentry" || name.startsWith("sentry___")) {
      const parsed = parseObject(value);
      if (parsed) merge(event, parsed);
      continue;
    }
    const chunk = /^sentry__(\d{1,4})$/.exec(name);
    if (chunk) {
      chunks.set(Number(chunk[1]), value);
      continue;
    }
    const path = bracketPath(name);
    if (path) setNested(event, path, value);
    else if (name !== "__proto__") setNested(event, ["extra", name], value);
  }
  if (chunks.size > 0) {
    const joined = [...chunks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, v]) => v)
      .join("");
    const parsed = parseObject(joined);
    if (parsed) merge(event, parsed);
  }
  return event;
}
