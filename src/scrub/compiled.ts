// A PiiConfig made ready to apply (relay-pii src/compiledconfig.rs): selectors parsed once, `multiple` and `alias`
// rules flattened into the rules they stand for (reported under the outer id when `hideInner`, with the outer
// redaction unless it is `default`), rules of one application ordered by id without duplicates (Relay's BTreeSet),
// and every regular expression compiled once.
import { SCRUB_LIMITS } from "../config/limits/privacy";
import { lookupRule, type PiiConfig, type Redaction, type RuleSpec, type SimpleRuleType } from "./config";
import { PATTERNS, re2Matcher, short, type Matcher } from "./patterns";
import { compileSelector, parseSelector, selectsOnlyPiiTrue, type Selector, type State } from "./selector";

/** How matches are replaced: the whole value, or these groups of each match (regexes.rs `ReplaceBehavior`). */
export type Replace = "value" | number[];

/** One regular expression of a rule (regexes.rs `get_regex_for_rule_type`): on the value, the key only, or the key then the value. */
export type RulePattern = { on: "value" | "key" | "keyvalue"; matcher: Matcher; replace: Replace };

export type CompiledRule = {
  id: string;
  /** The id reported in remarks. */
  origin: string;
  anything: boolean;
  patterns: RulePattern[];
  redaction: Redaction;
  hashKey: string;
};

export type CompiledApplication = {
  selector: Selector;
  test: (state: State) => boolean;
  rules: CompiledRule[];
  /** Whether any rule can act on a container, number or other non-string (`anything`, or a key rule). */
  forNonStrings: boolean;
  /**
   * Matches every string any rule's value patterns could match (the union of the built-in patterns' gates), or null
   * when a rule has no gate (a user pattern, `anything`): a string it misses only needs the key checks. Its answers
   * are kept per string: asked of strings an earlier rule changed (often the same redacted text again), and once
   * per new string that passes the config's union for its flags.
   */
  gate: GateTest | null;
  /** What `gate` was made of (kept to join rule sets of several configs into one walk). */
  gates: Gates | null;
  /** Whether a rule is `anything` (it acts whatever the key and value). */
  anything: boolean;
  /** Whether some rule's key pattern matches this key (answers kept per key). */
  keyHit: (key: string | null) => boolean;
};

function keyHitFor(rules: CompiledRule[]): (key: string | null) => boolean {
  const patterns = rules.flatMap((r) => r.patterns.filter((p) => p.on !== "value"));
  if (patterns.length === 0) return () => false;
  const answers = new Map<string, boolean>();
  return (key) => {
    const k = key ?? "";
    let answer = answers.get(k);
    if (answer === undefined) {
      answer = patterns.some((p) => p.matcher.test(k));
      if (answers.size > 4096) answers.clear();
      answers.set(k, answer);
    }
    return answer;
  };
}

/** Passes a string any of the gates could match. */
export type GateTest = (text: string) => boolean;

/** A rule set's gates: sources to join into one expression, and user patterns' native prefilters tested one by one. */
type Gates = { sources: Set<string>; prefilters: RegExp[] };

/** The gates of a rule set's value patterns, or null when one has none. */
function gatesOf(rules: CompiledRule[]): Gates | null {
  const gates: Gates = { sources: new Set(), prefilters: [] };
  for (const r of rules) {
    if (r.anything) return null;
    for (const p of r.patterns) {
      if (p.on === "key") continue;
      if (p.matcher.gate) gates.sources.add(p.matcher.gate.source);
      else if (p.matcher.prefilter) gates.prefilters.push(p.matcher.prefilter);
      else return null;
    }
  }
  return gates;
}

/**
 * One case-insensitive regular expression for all the gates (a case-sensitive gate only lets more through that
 * way, which is safe: a gate is a necessary condition, never a sufficient one), then each prefilter. Prefilters stay
 * apart: joined under a flag, V8 could no longer run one that backtracks badly in linear time.
 */
function gateTest({ sources, prefilters }: Gates): GateTest {
  const re = sources.size === 0 ? null : new RegExp([...sources].map((g) => `(?:${g})`).join("|"), "i");
  const pre = [...new Set(prefilters)];
  if (re === null && pre.length === 0) return () => false;
  return (text: string) => {
    if (re !== null && re.test(text)) return true;
    // A prefilter is a native pattern that may backtrack: past a short text, it passes (the patterns run in re2js).
    if (pre.length > 0 && !short(text)) return true;
    for (let i = 0; i < pre.length; i++) if (pre[i]!.test(text)) return true;
    return false;
  };
}

/**
 * Answers kept per string: the joined expression tries every gate at every position of the string, and most strings
 * come again and again (file paths, variable representations, messages of the same error).
 */
function memoized<T>(test: (text: string) => T): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    if (text.length > SCRUB_LIMITS.gateMemoMaxLength) return test(text);
    let answer = answers.get(text);
    if (answer === undefined) {
      answer = test(text);
      if (answers.size >= SCRUB_LIMITS.gateMemoEntries) answers.clear();
      answers.set(text, answer);
    }
    return answer;
  };
}

/** What a key means for each rule set, worked out once per distinct key (keys repeat from event to event). */
export type KeyProfile = {
  /** Per rule set: some rule's key pattern matches the key. */
  hit: Uint8Array;
  /** Per rule set: the selector can match a value under this key at all (its paths all end in other keys, else). */
  possible: Uint8Array;
  /**
   * Whether a gated rule set that can match under this key can also match a value with pii=maybe: when none can, the
   * gates of such a value are never read (every gated rule set's selector refuses it), so they are not looked up.
   */
  gatesForPiiMaybe: boolean;
};

export type CompiledConfig = {
  applications: CompiledApplication[];
  profile: (key: string | null) => KeyProfile;
  /**
   * Which rule sets' gates a string passes, one lookup per string: null when it misses the union of all the gated
   * rule sets' gates (every gated rule set then skips its value patterns), else a flag per rule set (1: its gate
   * passes, or it has none). Null when no rule set is gated.
   */
  gate: ((text: string) => Uint8Array | null) | null;
};

const MATCH: number[] = [0];
const LEGACY_URL_PASSWORD = "\\b((?:[a-z0-9]+:)?//[a-zA-Z0-9%_.-]+:)([a-zA-Z0-9%_.-]+)@";

const isWholeMatch = (groups: number[]) => groups.every((g) => g === 0);

function patternsFor(rule: RuleSpec): RulePattern[] {
  const v = (matcher: Matcher, replace: Replace = MATCH): RulePattern => ({ on: "value", matcher, replace });
  switch (rule.type) {
    case "anything":
      return [v(PATTERNS.anything)];
    case "pattern":
      // Sentry's legacy URL password pattern (`@urlauth:legacy`) runs natively, behind its substring test.
      if (rule.pattern === LEGACY_URL_PASSWORD) return [v(PATTERNS.urlauthLegacy, rule.replaceGroups ?? MATCH)];
      try {
        return [v(re2Matcher(rule.pattern, false, isWholeMatch(rule.replaceGroups ?? MATCH)), rule.replaceGroups ?? MATCH)];
      } catch {
        return []; // Relay logs and skips a pattern that does not compile; parsePiiConfig refuses it at save time.
      }
    case "redact_pair":
      try {
        return [{ on: "keyvalue", matcher: re2Matcher(rule.keyPattern, rule.caseInsensitive === true), replace: "value" }];
      } catch {
        return [];
      }
    case "bearer":
      return [v(PATTERNS.bearer)];
    case "password":
      return [
        v(PATTERNS.bearer),
        { on: "key", matcher: PATTERNS.tokenKey, replace: "value" },
        { on: "keyvalue", matcher: PATTERNS.passwordKey, replace: "value" },
      ];
    case "imei":
      return [v(PATTERNS.imei)];
    case "mac":
      return [v(PATTERNS.mac)];
    case "uuid":
      return [v(PATTERNS.uuid)];
    case "email":
      return [v(PATTERNS.email)];
    case "iban":
      return [v(PATTERNS.iban)];
    case "ip":
      return [v(PATTERNS.ipv4), v(PATTERNS.ipv6, [1])];
    case "creditcard":
      return [v(PATTERNS.creditcard)];
    case "pemkey":
      return [v(PATTERNS.pemkey, [1])];
    case "url_auth":
      return [v(PATTERNS.urlauth, [1])];
    case "us_ssn":
      return [v(PATTERNS.usssn)];
    case "userpath":
      return [v(PATTERNS.userpath, [1])];
    default:
      return [];
  }
}

/** Built-in rules are compiled once, whatever config refers to them. */
const patternCache = new Map<string, RulePattern[]>();

function compiledPatterns(id: string, rule: RuleSpec, builtin: boolean): RulePattern[] {
  if (!builtin) return patternsFor(rule);
  let p = patternCache.get(id);
  if (!p) patternCache.set(id, (p = patternsFor(rule)));
  return p;
}

type Parent = { origin: string; redaction: Redaction } | null;

function collect(config: PiiConfig, out: Map<string, CompiledRule>, id: string, parent: Parent, depth: number): void {
  if (depth > SCRUB_LIMITS.maxRuleNesting) return;
  const rule = lookupRule(config, id);
  if (!rule) return;
  if (rule.type === "multiple" || rule.type === "alias") {
    const next: Parent = rule.hideInner ? (parent ?? { origin: id, redaction: rule.redaction }) : parent;
    for (const inner of rule.type === "multiple" ? rule.rules : [rule.rule]) collect(config, out, inner, next, depth + 1);
    return;
  }
  const builtin = !Object.hasOwn(config.rules, id);
  const redaction = parent && parent.redaction.method !== "default" ? parent.redaction : rule.redaction;
  const origin = parent ? parent.origin : id;
  const key = `${id}\u0000${origin}\u0000${JSON.stringify(redaction)}`;
  if (out.has(key)) return;
  out.set(key, {
    id,
    origin,
    anything: rule.type === "anything",
    patterns: compiledPatterns(id, rule, builtin),
    redaction,
    hashKey: config.vars.hashKey ?? "",
  });
}

const byId = (a: CompiledRule, b: CompiledRule) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0);

/** `CompiledPiiConfig::new` over selectors already parsed, in the order given. */
export function compileParsed(config: PiiConfig, entries: readonly { selector: Selector; ids: readonly string[] }[]): CompiledConfig {
  const applications: CompiledApplication[] = [];
  for (const { selector, ids } of entries) {
    const rules = new Map<string, CompiledRule>();
    for (const id of ids) collect(config, rules, id, null, 0);
    if (rules.size === 0) continue;
    const sorted = [...rules.values()].sort(byId);
    const gates = gatesOf(sorted);
    applications.push({
      selector,
      test: compileSelector(selector),
      rules: sorted,
      forNonStrings: sorted.some((r) => r.anything || r.patterns.some((p) => p.on !== "value")),
      gate: gates ? memoized(gateTest(gates)) : null,
      gates,
      anything: sorted.some((r) => r.anything),
      keyHit: keyHitFor(sorted),
    });
  }
  return assemble(applications);
}

function assemble(applications: CompiledApplication[]): CompiledConfig {
  const all: Gates = { sources: new Set(), prefilters: [] };
  for (const a of applications) {
    for (const g of a.gates?.sources ?? []) all.sources.add(g);
    all.prefilters.push(...(a.gates?.prefilters ?? []));
  }
  return { applications, gate: applications.some((a) => a.gate !== null) ? gateFlags(applications, gateTest(all)) : null, profile: profiles(applications) };
}

function gateFlags(applications: CompiledApplication[], union: GateTest): (text: string) => Uint8Array | null {
  return memoized((text) => (union(text) ? Uint8Array.from(applications, (a) => (a.gate === null || a.gate(text) ? 1 : 0)) : null));
}

/**
 * Several configs as one, applied in one walk: at every value the first config's rule sets act, then the next's.
 * Relay runs one pass per config; the values come out the same, because what a rule set does to a value depends
 * only on the value's path and on the value as the rule sets before left it. (Where a later config deletes a whole
 * container, the earlier one's notes on values inside it are not kept: they described values that are gone.)
 */
export function combineConfigs(configs: readonly CompiledConfig[]): CompiledConfig {
  return configs.length === 1 ? configs[0]! : assemble(configs.flatMap((c) => c.applications));
}

/** The keys a selector's value must have: every alternative a path ending in a key, or null (any key). */
function lastKeys(s: Selector): Set<string> | null {
  if (s.kind === "path") {
    const last = s.items[s.items.length - 1];
    return last?.kind === "key" ? new Set([last.key]) : null;
  }
  if (s.kind === "or") {
    const out = new Set<string>();
    for (const item of s.items) {
      const keys = lastKeys(item);
      if (!keys) return null;
      for (const k of keys) out.add(k);
    }
    return out;
  }
  if (s.kind === "and") {
    for (const item of s.items) {
      const keys = lastKeys(item);
      if (keys) return keys;
    }
  }
  return null;
}

function profiles(applications: CompiledApplication[]): (key: string | null) => KeyProfile {
  const filters = applications.map((a) => lastKeys(a.selector));
  const maybe = applications.map((a) => a.gate !== null && !selectsOnlyPiiTrue(a.selector));
  const make = (key: string | null): KeyProfile => {
    const lower = key === null ? null : key.toLowerCase();
    const possible = Uint8Array.from(filters, (f) => (f === null || (lower !== null && f.has(lower)) ? 1 : 0));
    return {
      hit: Uint8Array.from(applications, (a) => (a.keyHit(key) ? 1 : 0)),
      possible,
      gatesForPiiMaybe: maybe.some((m, i) => m && possible[i] === 1),
    };
  };
  const forIndex = make(null);
  const cache = new Map<string, KeyProfile>();
  return (key) => {
    if (key === null) return forIndex;
    let p = cache.get(key);
    if (!p) {
      if (cache.size > 4096) cache.clear();
      cache.set(key, (p = make(key)));
    }
    return p;
  };
}

/** `CompiledPiiConfig::new`. Selectors that do not parse are skipped (they were refused at save time). */
export function compileConfig(config: PiiConfig): CompiledConfig {
  const entries: { selector: Selector; ids: string[] }[] = [];
  for (const [text, ids] of Object.entries(config.applications)) {
    try {
      entries.push({ selector: parseSelector(text), ids });
    } catch {
      // skipped
    }
  }
  return compileParsed(config, entries);
}

export type { SimpleRuleType };
