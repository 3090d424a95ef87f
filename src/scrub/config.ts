// Relay's PII config (relay-pii src/config.rs, redactions.rs): `rules` by id, `vars`, and `applications` from selector
// to rule ids; parsed and validated as Relay and Sentry do before saving (`validate_pii_config`): the JSON shape,
// known rule types and methods, selectors, regular expressions and rule references, within SCRUB_LIMITS.
import { z } from "zod";
import { SCRUB_LIMITS } from "../config/limits/privacy";
import { BUILTIN_RULES } from "./builtin";
import { SIMPLE_RULE_TYPES, type PiiConfig, type RuleSpec } from "./rule-types";
import { re2Matcher } from "./patterns";
import { parseSelector, SelectorError } from "./selector";

export { SIMPLE_RULE_TYPES, type PiiConfig, type Redaction, type RuleSpec, type RuleType, type SimpleRuleType } from "./rule-types";

const redaction = z
  .discriminatedUnion("method", [
    z.object({ method: z.literal("default") }),
    z.object({ method: z.literal("remove") }),
    // ReplaceRedaction::default(): "[Filtered]".
    z.object({ method: z.literal("replace"), text: z.string().default("[Filtered]") }),
    z.object({ method: z.literal("mask") }),
    z.object({ method: z.literal("hash") }),
  ])
  .default({ method: "default" });

const pattern = z.string().max(SCRUB_LIMITS.maxPatternLength, `a pattern is limited to ${SCRUB_LIMITS.maxPatternLength} characters`);

const ruleSpec = z.discriminatedUnion("type", [
  z.object({ type: z.enum(SIMPLE_RULE_TYPES), redaction }),
  // PatternRule: replaceGroups defaults to [0].
  z.object({ type: z.literal("pattern"), pattern, replaceGroups: z.array(z.number().int().min(0).max(255)).nullable().default([0]), redaction }),
  z.object({ type: z.literal("redact_pair"), keyPattern: pattern, redaction }),
  z.object({ type: z.literal("redactPair"), keyPattern: pattern, redaction }).transform((r) => ({ ...r, type: "redact_pair" as const })),
  z.object({ type: z.literal("multiple"), rules: z.array(z.string()), hideInner: z.boolean().default(false), redaction }),
  z.object({ type: z.literal("alias"), rule: z.string(), hideInner: z.boolean().default(false), redaction }),
]);

const piiConfig = z.object({
  rules: z.record(z.string(), ruleSpec).default({}),
  vars: z.object({ hashKey: z.string().nullish() }).default({}),
  applications: z.record(z.string(), z.array(z.string())).default({}),
});

/** Where a rule id leads: the config's own rules first, then the built-ins (compiledconfig.rs `collect_rules`). */
export function lookupRule(config: PiiConfig, id: string): RuleSpec | undefined {
  return Object.hasOwn(config.rules, id) ? config.rules[id] : Object.hasOwn(BUILTIN_RULES, id) ? BUILTIN_RULES[id] : undefined;
}

function checkPattern(where: string, text: string, caseInsensitive: boolean): string | null {
  try {
    const m = re2Matcher(text, caseInsensitive);
    if (m.programSize > SCRUB_LIMITS.maxProgramSize) return `${where}: the regular expression is too large`;
    return null;
  } catch (e) {
    return `${where}: invalid regular expression: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function checkReferences(config: PiiConfig, id: string, where: string, depth: number): string | null {
  const rule = lookupRule(config, id);
  if (!rule) return `${where}: unknown rule reference ${JSON.stringify(id)}`;
  if (depth > SCRUB_LIMITS.maxRuleNesting) return `${where}: rules refer to each other too deeply (or in a cycle)`;
  if (!Object.hasOwn(config.rules, id)) return null; // a built-in rule: its own references are Relay's
  const inner = rule.type === "multiple" ? rule.rules : rule.type === "alias" ? [rule.rule] : [];
  for (const next of inner) {
    const error = checkReferences(config, next, `${where} → ${next}`, depth + 1);
    if (error) return error;
  }
  return null;
}

function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Validates a relayPiiConfig JSON text as Relay would; the error message is for the API's 400 answer. */
export function parsePiiConfig(text: string): { ok: true; config: PiiConfig } | { ok: false; error: string } {
  if (Buffer.byteLength(text, "utf8") > SCRUB_LIMITS.maxConfigBytes)
    return { ok: false, error: `the config is limited to ${SCRUB_LIMITS.maxConfigBytes} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `invalid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (json === null) json = {};
  const parsed = piiConfig.safeParse(json);
  if (!parsed.success) return { ok: false, error: zodMessage(parsed.error) };
  const config: PiiConfig = {
    rules: parsed.data.rules as Record<string, RuleSpec>,
    vars: parsed.data.vars.hashKey ? { hashKey: parsed.data.vars.hashKey } : {},
    applications: parsed.data.applications,
  };
  if (Object.keys(config.rules).length > SCRUB_LIMITS.maxRules) return { ok: false, error: `at most ${SCRUB_LIMITS.maxRules} rules` };
  if (Object.keys(config.applications).length > SCRUB_LIMITS.maxApplications)
    return { ok: false, error: `at most ${SCRUB_LIMITS.maxApplications} applications` };
  for (const [id, rule] of Object.entries(config.rules)) {
    const error =
      rule.type === "pattern"
        ? checkPattern(`rules.${id}.pattern`, rule.pattern, false)
        : rule.type === "redact_pair"
          ? checkPattern(`rules.${id}.keyPattern`, rule.keyPattern, false)
          : null;
    if (error) return { ok: false, error };
  }
  for (const [selector, ids] of Object.entries(config.applications)) {
    if (selector.length > SCRUB_LIMITS.maxSelectorLength)
      return { ok: false, error: `applications: a selector is limited to ${SCRUB_LIMITS.maxSelectorLength} characters` };
    try {
      parseSelector(selector);
    } catch (e) {
      return { ok: false, error: `applications: invalid selector ${JSON.stringify(selector)}: ${e instanceof SelectorError ? e.message : String(e)}` };
    }
    for (const id of ids) {
      const error = checkReferences(config, id, `applications.${selector}`, 0);
      if (error) return { ok: false, error };
    }
  }
  for (const id of Object.keys(config.rules)) {
    const error = checkReferences(config, id, `rules.${id}`, 0);
    if (error) return { ok: false, error };
  }
  return { ok: true, config };
}
