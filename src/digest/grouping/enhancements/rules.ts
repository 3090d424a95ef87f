// Parser and frame matchers for Sentry's stack trace rules ("enhancements"), enough for the
// built-in rule files: `key:value` matchers (path, package, module, function, family, app,
// category, with `stack.` aliases and `!` negation), caller `[ m ] |` and callee `| [ m ]`
// matchers, flag actions `[^v]?[+-](app|group)` and `category=` (getsentry/sentry
// src/sentry/grouping/enhancer/parser.py, matchers.py, actions.py).
import { type GlobMatcher, translateGlob } from "./glob";
import type { BehaviorFamily } from "../platform";

/** What a rule sees of a frame (Sentry's `create_match_frame`); path and package lowercased. */
export interface MatchFrame {
  category: string | null;
  family: BehaviorFamily;
  function: string | null;
  in_app: boolean;
  module: string | null;
  package: string | null;
  path: string | null;
}

export interface FrameMatcher {
  key: "path" | "package" | "module" | "function" | "family" | "app" | "category";
  pattern: string;
  negated: boolean;
  /** -1: the caller (previous, older frame); 1: the callee (next frame); 0: the frame itself. */
  offset: -1 | 0 | 1;
  /** The glob, compiled once when the rule is parsed (path, package, module, function, category). */
  glob: GlobMatcher | null;
  /** family: the families it names ("all" for any); app: the in_app value it wants (null: never matches). */
  families: string[];
  app: boolean | null;
}

const globTest = (m: FrameMatcher, value: string): boolean => m.glob!.test(value);

/**
 * Matchers on what applying rules never changes about a frame (its family, path, package, module and function), as
 * opposed to in_app and category, which earlier rules may set, and to the neighbouring frames.
 */
export const isStaticSelf = (m: FrameMatcher): boolean => m.offset === 0 && m.key !== "app" && m.key !== "category";

export type RuleAction = { kind: "flag"; key: "app" | "group"; flag: boolean; range: "up" | "down" | null } | { kind: "category"; value: string };

export interface Rule {
  text: string;
  matchers: FrameMatcher[];
  actions: RuleAction[];
}

const KEY_ALIASES: Record<string, FrameMatcher["key"]> = {
  path: "path",
  "stack.abs_path": "path",
  package: "package",
  "stack.package": "package",
  module: "module",
  "stack.module": "module",
  function: "function",
  "stack.function": "function",
  family: "family",
  app: "app",
  category: "category",
};

/** Splits a rule line into tokens; quoted values keep their spaces; `#` starts a comment. */
function tokenize(line: string): string[] {
  const tokens: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] as string;
    if (quoted) {
      if (c === "\\" && i + 1 < line.length) {
        cur += c + (line[i + 1] as string);
        i += 1;
      } else if (c === '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === "#") {
      break;
    } else if (/\s/.test(c)) {
      if (cur) tokens.push(cur);
      cur = "";
    } else if (c === "[" || c === "]" || c === "|") {
      if (cur) tokens.push(cur);
      cur = "";
      tokens.push(c);
    } else {
      cur += c;
    }
  }
  if (cur) tokens.push(cur);
  return tokens;
}

/** Python's "unicode-escape" decoding of a quoted value as the rule parser applies it. */
function unescapeQuoted(v: string): string {
  return v.replace(/\\\\/g, "\\");
}

function parseMatcher(token: string, offset: -1 | 0 | 1): FrameMatcher | null {
  let t = token;
  let negated = false;
  if (t.startsWith("!")) {
    negated = true;
    t = t.slice(1);
  }
  const colon = t.indexOf(":");
  if (colon <= 0) return null;
  const key = KEY_ALIASES[t.slice(0, colon)];
  if (key === undefined) return null;
  let pattern = unescapeQuoted(t.slice(colon + 1));
  if (key === "path" || key === "package") pattern = pattern.toLowerCase();
  const isPath = key === "path" || key === "package";
  // Sentry's glob_match with path_normalize turns backslashes into slashes in value and pattern alike.
  const glob = key === "family" || key === "app" ? null : translateGlob(isPath ? pattern.replace(/\\/g, "/") : pattern, isPath);
  const lower = pattern.toLowerCase();
  const app = ["1", "yes", "true"].includes(lower) ? true : ["0", "no", "false"].includes(lower) ? false : null;
  return { key, pattern, negated, offset, glob, families: pattern.split(","), app };
}

/** Cheap matchers first: every matcher of a rule must hold, so the order changes only how soon a miss is found. */
const MATCHER_COST: Record<FrameMatcher["key"], number> = { family: 0, app: 0, category: 1, function: 2, module: 2, package: 3, path: 3 };

function parseAction(token: string): RuleAction | null {
  const flag = /^([\^v]?)([+-])(app|group)$/.exec(token);
  if (flag) {
    const range = flag[1] === "^" ? "up" : flag[1] === "v" ? "down" : null;
    return { kind: "flag", key: flag[3] as "app" | "group", flag: flag[2] === "+", range };
  }
  const cat = /^category=(.+)$/.exec(token);
  if (cat && cat[1] !== undefined) return { kind: "category", value: cat[1] };
  return null;
}

/** Parses rule text; lines that are not understood are rejected with an error naming them. */
export function parseRules(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const rawLine of text.split("\n")) {
    const tokens = tokenize(rawLine);
    if (tokens.length === 0) continue;
    const matchers: FrameMatcher[] = [];
    const actions: RuleAction[] = [];
    let offset: -1 | 0 | 1 = 0;
    let inBracket = false;
    let seenSelf = false;
    for (const tok of tokens) {
      if (tok === "[") {
        inBracket = true;
        offset = seenSelf ? 1 : -1;
        continue;
      }
      if (tok === "]") {
        inBracket = false;
        offset = 0;
        continue;
      }
      if (tok === "|") continue;
      const action = inBracket ? null : parseAction(tok);
      if (action) {
        actions.push(action);
        continue;
      }
      const m = parseMatcher(tok, inBracket ? offset : 0);
      if (!m) throw new Error(`unsupported stack trace rule token ${JSON.stringify(tok)} in: ${rawLine}`);
      if (!inBracket) seenSelf = true;
      matchers.push(m);
    }
    const text = rawLine
      .replace(/\s+#.*$/, "")
      .trim()
      .replace(/\s+/g, " ");
    matchers.sort((a, b) => MATCHER_COST[a.key] - MATCHER_COST[b.key]);
    rules.push({ text, matchers, actions });
  }
  return rules;
}

function matchesOne(m: FrameMatcher, f: MatchFrame): boolean {
  switch (m.key) {
    case "family":
      return m.families.some((p) => p === "all" || p === f.family);
    case "app":
      return m.app !== null && m.app === f.in_app;
    case "path":
    case "package": {
      // MatchFrame paths are lowercased and use forward slashes already.
      const v = m.key === "path" ? f.path : f.package;
      if (v === null) return false;
      return globTest(m, v) || (!v.startsWith("/") && globTest(m, `/${v}`));
    }
    case "module":
    case "function":
    case "category": {
      const v = f[m.key];
      return v !== null && globTest(m, v);
    }
  }
}

export function matcherMatches(m: FrameMatcher, frames: readonly MatchFrame[], idx: number): boolean {
  const f = frames[idx + m.offset];
  if (f === undefined) return false;
  return matchesOne(m, f) !== m.negated;
}
