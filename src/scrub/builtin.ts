// Relay's built-in rules (relay-pii src/builtin.rs): `@ip`, `@email:mask`, `@common:filter`... referred to by id from
// any config; an id without a method is an alias (hideInner) to the default method of that type.
import type { Redaction, RuleSpec, SimpleRuleType } from "./rule-types";

const REMOVE: Redaction = { method: "remove" };
const MASK: Redaction = { method: "mask" };
const HASH: Redaction = { method: "hash" };
const replace = (text: string): Redaction => ({ method: "replace", text });
const FILTERED = replace("[Filtered]");

const simple = (type: SimpleRuleType, redaction: Redaction): RuleSpec => ({ type, redaction });
const alias = (rule: string): RuleSpec => ({ type: "alias", rule, hideInner: true, redaction: { method: "default" } });

function family(
  name: string,
  type: SimpleRuleType,
  defaultMethod: string,
  replaceText: string,
  extra: Record<string, Redaction> = {},
): Record<string, RuleSpec> {
  const methods: Record<string, Redaction> = { replace: replace(replaceText), hash: HASH, mask: MASK, remove: REMOVE, ...extra };
  const out: Record<string, RuleSpec> = { [`@${name}`]: alias(`@${name}:${defaultMethod}`) };
  for (const [method, redaction] of Object.entries(methods)) out[`@${name}:${method}`] = simple(type, redaction);
  return out;
}

export const BUILTIN_RULES: Readonly<Record<string, RuleSpec>> = {
  "@common": {
    type: "multiple",
    rules: ["@iban", "@ip", "@email", "@creditcard", "@pemkey", "@urlauth", "@userpath", "@password", "@usssn"],
    hideInner: false,
    redaction: { method: "default" },
  },
  // The legacy data scrubbing equivalent.
  "@common:filter": {
    type: "multiple",
    rules: ["@creditcard:filter", "@iban:filter", "@pemkey:filter", "@urlauth:legacy", "@userpath:filter", "@password:filter", "@usssn:filter"],
    hideInner: false,
    redaction: { method: "default" },
  },
  ...family("anything", "anything", "replace", "[Filtered]", { filter: FILTERED }),
  ...family("ip", "ip", "replace", "[ip]"),
  // builtin.rs maps `@imei:mask` to hashing.
  ...family("imei", "imei", "replace", "[imei]", { mask: HASH }),
  ...family("mac", "mac", "mask", "[mac]"),
  ...family("uuid", "uuid", "mask", "[uuid]"),
  ...family("email", "email", "replace", "[email]"),
  ...family("iban", "iban", "replace", "[iban]", { filter: FILTERED }),
  ...family("creditcard", "creditcard", "replace", "[creditcard]", { filter: FILTERED }),
  ...family("pemkey", "pemkey", "replace", "[pemkey]", { filter: FILTERED }),
  ...family("urlauth", "url_auth", "replace", "[auth]"),
  "@urlauth:legacy": {
    // Sentry's legacy `URL_PASSWORD_RE`.
    type: "pattern",
    pattern: "\\b((?:[a-z0-9]+:)?//[a-zA-Z0-9%_.-]+:)([a-zA-Z0-9%_.-]+)@",
    replaceGroups: [2],
    redaction: FILTERED,
  },
  ...family("usssn", "us_ssn", "mask", "[us-ssn]", { filter: FILTERED }),
  ...family("userpath", "userpath", "replace", "[user]"),
  ...family("password", "password", "remove", "[password]", { filter: FILTERED }),
  // relay-pii processor.rs test `logentry_formatted_bearer_token_scrubbing`: the whole match becomes "Bearer [token]".
  ...family("bearer", "bearer", "replace", "Bearer [token]"),
};
