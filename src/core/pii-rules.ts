// The settings screen's advanced data scrubbing rules, "[Method] [Type] from [Source]", and Relay's relayPiiConfig
// JSON they are stored as, read and written as Sentry's settings screen does (sentry
// static/app/views/settings/components/dataScrubbing: types.tsx, convertRelayPiiConfig.tsx, submitRules.tsx): rule ids
// "0", "1", …; one application per source naming the rule ids applied there. Rules the screen cannot express (Relay's
// redact_pair, multiple, alias, written as JSON) are listed as such and kept as they are.

/** Relay's rule types the screen offers (relay-pii config.rs RuleType, snake_case), in Sentry's order. */
export const PII_RULE_TYPES = [
  "anything",
  "creditcard",
  "password",
  "ip",
  "imei",
  "mac",
  "uuid",
  "email",
  "iban",
  "pemkey",
  "url_auth",
  "us_ssn",
  "userpath",
  "pattern",
] as const;
export type PiiRuleType = (typeof PII_RULE_TYPES)[number];
/** Relay's redaction methods (relay-pii redactions.rs). */
export const PII_METHODS = ["remove", "mask", "hash", "replace"] as const;
export type PiiMethod = (typeof PII_METHODS)[number];

/** Sources Sentry's screen suggests first (Relay's selector language: value types, paths, `**`, `&&`, `||`, `!`). */
export const SUGGESTED_SOURCES = [
  "$string",
  "$message",
  "$error.value",
  "$http.headers.x-custom",
  "$http.cookies",
  "$request.data",
  "$frame.vars",
  "$user.email",
  "$user.ip_address",
  "$breadcrumb.message",
  "extra.'my.key'",
  "**",
  "$string && !$frame.vars",
] as const;

/** One rule as the screen shows it; `custom`: a rule only the JSON can say (shown by its type, kept as it is). */
export type ScreenRule = { id: string; source: string; type: string; method: string; pattern?: string; placeholder?: string; custom: boolean };

/** A new rule from the screen's form. */
export type NewScreenRule = { source: string; type: PiiRuleType; method: PiiMethod; pattern?: string; placeholder?: string };

type Json = Record<string, unknown>;
type Config = { rules: Record<string, Json>; applications: Record<string, string[]>; vars?: Json };

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A stored relayPiiConfig text as an object to edit (empty when there is none). */
export function readConfig(text: string | null): Config {
  if (!text) return { rules: {}, applications: {} };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { rules: {}, applications: {} };
  }
  if (!isObject(raw)) return { rules: {}, applications: {} };
  const rules = isObject(raw.rules) ? (Object.fromEntries(Object.entries(raw.rules).filter(([, r]) => isObject(r))) as Record<string, Json>) : {};
  const applications = isObject(raw.applications)
    ? Object.fromEntries(
        Object.entries(raw.applications).map(([s, ids]) => [s, Array.isArray(ids) ? ids.filter((i): i is string => typeof i === "string") : []]),
      )
    : {};
  return { ...(isObject(raw.vars) ? { vars: raw.vars } : {}), rules, applications };
}

const SCREEN_TYPES = new Set<string>(PII_RULE_TYPES);

/** Every application of every rule, as the screen lists them (a built-in rule such as `@ip:replace` too). */
export function screenRules(text: string | null): ScreenRule[] {
  const config = readConfig(text);
  const out: ScreenRule[] = [];
  for (const [source, ids] of Object.entries(config.applications)) {
    for (const id of ids) {
      const rule = config.rules[id];
      if (!rule) {
        // A built-in rule applied by name: "@type:method".
        const [type = id, method = "default"] = id.replace(/^@/, "").split(":");
        out.push({ id, source, type, method, custom: !id.startsWith("@") });
        continue;
      }
      const redaction = isObject(rule.redaction) ? rule.redaction : {};
      const type = typeof rule.type === "string" ? rule.type : "unknown";
      out.push({
        id,
        source,
        type,
        method: typeof redaction.method === "string" ? redaction.method : "default",
        ...(typeof rule.pattern === "string" ? { pattern: rule.pattern } : {}),
        ...(typeof redaction.text === "string" ? { placeholder: redaction.text } : {}),
        custom: !SCREEN_TYPES.has(type),
      });
    }
  }
  return out;
}

/** The config with one more rule, under the next free numeric id, applied to its source. */
export function withRule(text: string | null, rule: NewScreenRule): string {
  const config = readConfig(text);
  let n = 0;
  while (Object.hasOwn(config.rules, String(n))) n++;
  const id = String(n);
  const redaction: Json = { method: rule.method };
  if (rule.method === "replace") redaction.text = rule.placeholder && rule.placeholder.length > 0 ? rule.placeholder : "[Filtered]";
  config.rules[id] = { type: rule.type, ...(rule.type === "pattern" ? { pattern: rule.pattern ?? "" } : {}), redaction };
  config.applications[rule.source] = [...(config.applications[rule.source] ?? []), id];
  return JSON.stringify(config);
}

/** The config without the application of rule `id` at `source` (and without the rule once nothing applies it); null when nothing is left. */
export function withoutRule(text: string | null, id: string, source: string): string | null {
  const config = readConfig(text);
  const ids = (config.applications[source] ?? []).filter((i) => i !== id);
  if (ids.length > 0) config.applications[source] = ids;
  else delete config.applications[source];
  if (!Object.values(config.applications).some((list) => list.includes(id))) delete config.rules[id];
  if (Object.keys(config.rules).length === 0 && Object.keys(config.applications).length === 0) return null;
  return JSON.stringify(config);
}

/** What a preview changed: each string, number or container that differs after scrubbing, by its path. */
export type ScrubbedChange = { path: string; before: string; after: string };

/** The leaves that scrubbing changed or removed, at most `limit`, in the event's order (the preview's table). */
export function scrubbedChanges(before: unknown, after: unknown, limit: number, path = ""): ScrubbedChange[] {
  const out: ScrubbedChange[] = [];
  const walk = (a: unknown, b: unknown, at: string) => {
    if (out.length >= limit || at === "_meta") return;
    if (isObject(a) && isObject(b)) {
      for (const k of Object.keys(a)) walk(a[k], b[k], at ? `${at}.${k}` : k);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      a.forEach((v, i) => walk(v, b[i], at ? `${at}.${i}` : String(i)));
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path: at, before: shown(a), after: b === undefined ? "" : shown(b) });
  };
  walk(before, after, path);
  return out;
}

const shown = (v: unknown) => (typeof v === "string" ? v : (JSON.stringify(v) ?? "")).slice(0, 200);
