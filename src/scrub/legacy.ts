// The project settings of Sentry's "Security & Privacy" page as Relay applies them: Sentry's merge of organization
// and project (src/sentry/relay/config/__init__.py `get_datascrubbing_settings`: the organization's "require" options
// win, field lists add up; `get_pii_config`: organization rules before project rules, ids prefixed), and Relay's
// conversion of the legacy settings into a PII config (relay-pii src/convert.rs `to_pii_config`).
import type { PiiConfig, RuleSpec } from "./config";
import { parseNonLegacy, parseSelector, VT, type PathItem, type Selector } from "./selector";

/** Relay's `DataScrubbingConfig` (relay-pii legacy.rs). */
export type DataScrubbingConfig = {
  scrubData: boolean;
  scrubDefaults: boolean;
  sensitiveFields: string[];
  excludeFields: string[];
  scrubIpAddresses: boolean;
};

const path = (...items: PathItem[]): Selector => ({ kind: "path", items });
const type = (t: number): PathItem => ({ kind: "type", type: t });
const key = (k: string): PathItem => ({ kind: "key", key: k.toLowerCase() });
const or = (...items: Selector[]): Selector => ({ kind: "or", items });
const sel = (text: string): Selector => parseSelector(text);

/** convert.rs `DATASCRUBBER_IGNORE`: fields the legacy scrubber never strips. */
const DATASCRUBBER_IGNORE = sel("(debug_meta.** | $frame.filename | $frame.abs_path | $logentry.formatted | $error.value | $request.headers.user-agent)");

/** convert.rs `KNOWN_IP_FIELDS`. */
const KNOWN_IP_FIELDS = sel("($request.env.REMOTE_ADDR | $user.ip_address | $sdk.client_ip | $span.sentry_tags.'user.ip' | attributes.'client.address')");

/** convert.rs `SENSITIVE_COOKIES`: session and CSRF cookies of common frameworks. */
const SENSITIVE_COOKIE_NAMES = [
  "sentrysid",
  "sudo",
  "su",
  "session",
  "__session",
  "sessionid",
  "user_session",
  "symfony",
  "phpsessid",
  "fasthttpsessionid",
  "mysession",
  "irissessionid",
  "_vercel_jwt",
  "csrf",
  "xsrf",
  "_xsrf",
  "_csrf",
  "csrf-token",
  "csrf_token",
  "xsrf-token",
  "xsrf_token",
  "fastcsrf",
  "_iris_csrf",
];
const SENSITIVE_COOKIES = or(
  path({ kind: "wildcard" }, key("http.request.header.cookie")),
  ...SENSITIVE_COOKIE_NAMES.flatMap((name) => [
    path({ kind: "wildcard" }, key("cookies"), key(name)),
    path({ kind: "wildcard" }, key(`http.request.header.cookie.${name}`)),
  ]),
);

/** convert.rs `REPLACE_ONLY_SELECTOR`: fields that matter too much to destroy get only replacing rules. */
const GEN_AI_KEYS = [
  "gen_ai.input.messages",
  "gen_ai.prompt",
  "gen_ai.request.messages",
  "gen_ai.tool.call.arguments",
  "gen_ai.tool.input",
  "gen_ai.tool.call.result",
  "gen_ai.tool.output",
  "gen_ai.output.messages",
  "gen_ai.response.tool_calls",
  "gen_ai.response.text",
  "gen_ai.response.object",
  "gen_ai.tool.definitions",
  "gen_ai.request.available_tools",
  "gen_ai.tool.name",
  "mcp.prompt.result",
  "mcp.tool.result.content",
];
const REPLACE_ONLY_SELECTOR = or(
  path(type(VT.logentry), key("formatted")),
  // (Relay's `$log.body` is for log items, which Faultline does not scrub here.)
  ...GEN_AI_KEYS.flatMap((k) => [path(type(VT.span), key("data"), key(k)), path(key("attributes"), key(k), key("value"))]),
);

/**
 * Faultline's addition to the defaults (issue 18: "the Authorization, Cookie and Set-Cookie headers"): Relay moves a
 * Cookie header into `cookies` during normalization and scrubs only session-like cookie names there, so a Cookie or
 * Set-Cookie header that stays (or a response's) would keep every cookie. The whole header value is filtered.
 */
const COOKIE_HEADERS = or(path(key("headers"), key("cookie")), path(key("headers"), key("set-cookie")));

/** Relay's `regex::escape`. */
function escapeRegex(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$#&\-~]/g, "\\$&");
}

/** convert.rs `to_pii_config`: the legacy settings as rules and applications (in Relay's order), or null when nothing applies. */
export function toPiiConfig(c: DataScrubbingConfig): { config: PiiConfig; applications: { selector: Selector; ids: string[] }[] } | null {
  const rules: Record<string, RuleSpec> = {};
  const applied: string[] = [];
  const extra: { selector: Selector; ids: string[] }[] = [];
  if (c.scrubData && c.scrubDefaults) {
    applied.push("@common:filter");
    extra.push({ selector: REPLACE_ONLY_SELECTOR, ids: ["@email:replace", "@creditcard:replace", "@iban:replace", "@usssn:replace", "@bearer:replace"] });
    extra.push({ selector: SENSITIVE_COOKIES, ids: ["@anything:filter"] });
    extra.push({ selector: COOKIE_HEADERS, ids: ["@anything:filter"] });
  }
  if (c.scrubIpAddresses) {
    extra.unshift({ selector: KNOWN_IP_FIELDS, ids: ["@anything:remove"] });
    applied.push("@ip:replace");
  }
  if (c.scrubData) {
    const fields = c.sensitiveFields.map((f) => f.trim()).filter((f) => f !== "");
    if (fields.length > 0) {
      rules["strip-fields"] = {
        type: "redact_pair",
        keyPattern: fields.map(escapeRegex).join("|"),
        caseInsensitive: true,
        redaction: { method: "replace", text: "[Filtered]" },
      };
      applied.push("strip-fields");
    }
  }
  if (applied.length === 0 && extra.length === 0) return null;
  const conjunctions: Selector[] = [
    or(path(type(VT.string)), path(type(VT.number)), path(type(VT.array)), path(type(VT.object))),
    { kind: "not", inner: DATASCRUBBER_IGNORE },
  ];
  for (const raw of c.excludeFields) {
    const field = raw.trim();
    if (field === "") continue;
    let spec: Selector;
    try {
      spec = parseNonLegacy(field);
    } catch {
      spec = path(key(field)); // invalid safe fields still work as a plain key, as in Relay
    }
    conjunctions.push({ kind: "not", inner: spec });
  }
  const applications = applied.length > 0 ? [{ selector: { kind: "and", items: conjunctions } as Selector, ids: applied }, ...extra] : extra;
  return { config: { rules, vars: {}, applications: {} }, applications };
}

/** What Faultline stores per organization and project (Sentry's API names), as far as the legacy settings go. */
export type LegacyOptions = {
  dataScrubber: boolean;
  dataScrubberDefaults: boolean;
  sensitiveFields: string[];
  safeFields: string[];
  scrubIPAddresses: boolean;
};

/** `get_datascrubbing_settings`: the organization's switches force the project's on; field lists add up. */
export function mergeDatascrubbing(org: LegacyOptions, project: LegacyOptions): DataScrubbingConfig {
  return {
    scrubData: org.dataScrubber || project.dataScrubber,
    scrubDefaults: org.dataScrubberDefaults || project.dataScrubberDefaults,
    sensitiveFields: [...org.sensitiveFields, ...project.sensitiveFields],
    excludeFields: [...org.safeFields, ...project.safeFields],
    scrubIpAddresses: org.scrubIPAddresses || project.scrubIPAddresses,
  };
}

function prefixReferences(rules: Record<string, RuleSpec>, rule: RuleSpec, prefix: string): RuleSpec {
  if (rule.type === "alias" && Object.hasOwn(rules, rule.rule)) return { ...rule, rule: prefix + rule.rule };
  if (rule.type === "multiple" && rule.rules.some((r) => Object.hasOwn(rules, r)))
    return { ...rule, rules: rule.rules.map((r) => (Object.hasOwn(rules, r) ? prefix + r : r)) };
  return rule;
}

/** `get_pii_config` / `_merge_pii_configs`: organization rules first, ids prefixed `organization:` and `project:`. */
export function mergePiiConfigs(org: PiiConfig | null, project: PiiConfig | null): PiiConfig | null {
  if (!org && !project) return null;
  const out: PiiConfig = { rules: {}, vars: {}, applications: {} };
  for (const [prefix, config] of [
    ["organization:", org],
    ["project:", project],
  ] as const) {
    if (!config) continue;
    for (const [id, rule] of Object.entries(config.rules)) out.rules[prefix + id] = prefixReferences(config.rules, rule, prefix);
    for (const [selector, ids] of Object.entries(config.applications)) {
      const list = Object.hasOwn(out.applications, selector) ? out.applications[selector]! : (out.applications[selector] = []);
      for (const id of ids) {
        const name = Object.hasOwn(config.rules, id) ? prefix + id : id;
        if (!list.includes(name)) list.push(name);
      }
    }
  }
  return out;
}
