// Applying one rule to one value (relay-pii processor.rs `apply_rule_to_value` and `apply_regex_to_chunks`): a
// container or a removal rule deletes the value; a string is cut into chunks (text, and redactions already made,
// which later rules do not look into) and each match is replaced by the rule's redaction.
import { createHash, type Hash } from "node:crypto";
import { SCRUB_LIMITS } from "../config/limits/privacy";
import type { CompiledRule, Replace, RulePattern } from "./compiled";
import { codePoints, isRedaction, splitChunks, type Chunk, type Remark, type RemarkType } from "./meta";
import { PATTERNS, type Groups, type Matcher } from "./patterns";

/** A string value under scrubbing, with the remarks its meta carries (from this walk or an earlier config). */
export type Working = {
  value: string;
  remarks: Remark[];
  len: number | undefined;
  changed: boolean;
  /** The text patterns search, null until `prepare` works it out for the current value and remarks. */
  search: string | null;
  /** The value's earlier redactions, one per NUL in `search`. */
  redactions: readonly Chunk[];
  /** Whether `search` holds any text (a value redacted whole offers none). */
  hasText: boolean;
};

/** Shared, never written. */
const NO_CHUNKS: readonly Chunk[] = Object.freeze([]);

/** A fresh working value. */
export function working(value: string, remarks: Remark[], len: number | undefined): Working {
  return { value, remarks, len, changed: false, search: null, redactions: NO_CHUNKS, hasText: false };
}

/** Returned when the rule deletes the value (Relay's `ProcessingAction::DeleteValueHard`). */
export const DELETE = Symbol("delete");

/** HMAC-SHA1's two keyed states (RFC 2104), per key: each value then costs two copies instead of a new HMAC. */
const keyed = new Map<string, { inner: Hash; outer: Hash; known: Map<string, string> }>();
/** Answers kept in all the keys' `known` maps together (bounded by SCRUB_LIMITS.hashMemoEntries). */
let remembered = 0;

function keyedStates(key: string): { inner: Hash; outer: Hash; known: Map<string, string> } {
  let states = keyed.get(key);
  if (!states) {
    const block = Buffer.alloc(64);
    const raw = Buffer.from(key, "utf8");
    (raw.byteLength > 64 ? createHash("sha1").update(raw).digest() : raw).copy(block);
    states = {
      inner: createHash("sha1").update(block.map((b) => b ^ 0x36)),
      outer: createHash("sha1").update(block.map((b) => b ^ 0x5c)),
      known: new Map(),
    };
    if (keyed.size >= 64) forgetHashes(true);
    keyed.set(key, states);
  }
  return states;
}

function forgetHashes(keys: boolean): void {
  if (keys) keyed.clear();
  else for (const s of keyed.values()) s.known.clear();
  remembered = 0;
}

/** processor.rs `hash_value`: HMAC-SHA1 (keyed with `vars.hashKey`, empty by default), upper-case hex; answers kept per value. */
export function hash(text: string, key: string): string {
  const { inner, outer, known } = keyedStates(key);
  const kept = known.get(text);
  if (kept !== undefined) return kept;
  const out = outer.copy().update(inner.copy().update(text, "utf8").digest()).digest("hex").toUpperCase();
  if (text.length <= SCRUB_LIMITS.hashMemoMaxLength) {
    if (remembered >= SCRUB_LIMITS.hashMemoEntries) forgetHashes(false);
    known.set(text, out);
    remembered++;
  }
  return out;
}

/** A redaction's text and remark type (the rule's method applied to the matched text). */
function replacementText(rule: CompiledRule, text: string): string {
  const r = rule.redaction;
  switch (r.method) {
    case "mask":
      return "*".repeat(codePoints(text));
    case "hash":
      return hash(text, rule.hashKey);
    case "replace":
      return r.text;
    default:
      return "";
  }
}

const REMARK_TYPE: Record<string, RemarkType> = { mask: "m", hash: "p", replace: "s" };
const remarkType = (rule: CompiledRule): RemarkType => REMARK_TYPE[rule.redaction.method] ?? "x";

/**
 * What the patterns search in the working value (`split_chunks`): its text with each earlier redaction as one NUL
 * (NULs of the text itself dropped), the redactions in order, and whether any text is left to search. Worked out
 * once per state of the value: every rule of every rule set searches the same text until one of them changes it.
 */
function prepare(w: Working): void {
  w.redactions = NO_CHUNKS;
  let plain = true;
  for (let i = 0; i < w.remarks.length; i++) if (isRanged(w.remarks[i]!)) plain = false;
  if (plain) {
    w.search = w.value.includes("\u0000") ? w.value.replaceAll("\u0000", "") : w.value;
    w.hasText = true;
    return;
  }
  let search = "";
  let hasText = false;
  const redactions: Chunk[] = [];
  for (const c of splitChunks(w.value, w.remarks)) {
    if (isRedaction(c)) {
      search += "\u0000";
      redactions.push(c);
    } else {
      hasText = true;
      search += c.text.replaceAll("\u0000", "");
    }
  }
  w.search = search;
  w.redactions = redactions;
  w.hasText = hasText;
}

/**
 * `join_chunks` as the result is built: the new value and its ranged remarks, in code points. One, reused (rewrites
 * never nest), so that no object is made per rewrite beyond the result.
 */
const joined = { value: "", remarks: [] as Remark[], pos: 0, next: 0, redactions: NO_CHUNKS };

function joinStart(redactions: readonly Chunk[]): void {
  joined.value = "";
  joined.remarks = [];
  joined.pos = 0;
  joined.next = 0;
  joined.redactions = redactions;
}

function joinChunk(text: string, rule: string | null, type: RemarkType): void {
  const end = joined.pos + codePoints(text);
  joined.value += text;
  if (rule !== null) joined.remarks.push([rule, type, joined.pos, end]);
  joined.pos = end;
}

/** Text between matches, with the earlier redactions put back where their NULs stand. */
function joinText(t: string): void {
  if (t === "") return;
  let from = 0;
  for (let i = t.indexOf("\u0000"); i >= 0; i = t.indexOf("\u0000", from)) {
    joinChunk(t.slice(from, i), null, "x");
    const r = joined.redactions[joined.next++];
    if (r && isRedaction(r)) joinChunk(r.text, r.rule, r.type);
    from = i + 1;
  }
  joinChunk(t.slice(from), null, "x");
}

function joinRedaction(rule: CompiledRule, matched: string): void {
  joinChunk(replacementText(rule, matched), rule.origin, remarkType(rule));
}

function applyRegex(w: Working, rule: CompiledRule, matcher: Matcher, replace: Replace): void {
  // Most values carry no redaction yet, and most patterns find nothing: then the value itself is searched and
  // nothing is allocated before a match.
  if (w.search === null) prepare(w);
  if (!w.hasText) return;
  if (replace === "value") {
    if (matcher.test(w.search!)) rewrite(w, rule, null, replace);
  } else {
    const found = matcher.all(w.search!);
    if (found.length > 0) rewrite(w, rule, found, replace);
  }
}

/** The value with the matches replaced (`apply_regex_to_chunks` after a match): the whole value, or these groups. */
function rewrite(w: Working, rule: CompiledRule, found: Groups[] | null, replace: Replace): void {
  const search = w.search!;
  if (found === null || replace === "value") {
    joinStart(NO_CHUNKS);
    joinRedaction(rule, search);
  } else {
    joinStart(w.redactions);
    let pos = 0;
    for (let m = 0; m < found.length; m++) {
      const groups = found[m]!;
      for (let idx = 0; idx < groups.length; idx++) {
        const g = groups[idx];
        if (!g || !replace.includes(idx) || g[0] < pos) continue;
        joinText(search.slice(pos, g[0]));
        joinRedaction(rule, search.slice(g[0], g[1]));
        pos = g[1];
      }
    }
    joinText(search.slice(pos));
  }
  if (joined.value !== w.value) {
    if (w.len === undefined) w.len = codePoints(w.value);
    w.value = joined.value;
    w.remarks = joined.remarks;
    w.changed = true;
    w.search = null;
  }
  joined.value = "";
  joined.redactions = NO_CHUNKS;
}

const isRanged = (r: Remark) => r.length === 4;

/** Keys repeat from event to event: a key pattern's answer is kept per key (a bounded map per pattern). */
const keyAnswers = new WeakMap<RulePattern, Map<string, boolean>>();
function keyMatches(p: RulePattern, key: string): boolean {
  let answers = keyAnswers.get(p);
  if (!answers) keyAnswers.set(p, (answers = new Map()));
  let answer = answers.get(key);
  if (answer === undefined) {
    answer = p.matcher.test(key);
    if (answers.size > 2048) answers.clear();
    answers.set(key, answer);
  }
  return answer;
}

/**
 * `apply_rule_to_value`: `w` is the string being scrubbed, or null for a container, number or other non-string;
 * `gated` when the application's gate showed that no value pattern can match (only the key is looked at).
 * Returns DELETE when the value must go (its remark is then in `deleted`).
 */
export function applyRule(rule: CompiledRule, key: string | null, w: Working | null, gated = false): typeof DELETE | undefined {
  const chunked = rule.redaction.method !== "default" && rule.redaction.method !== "remove";
  if (rule.anything && (w === null || !chunked)) return DELETE;
  for (const p of rule.patterns) {
    if (p.on === "value") {
      if (w && !gated) applyRegex(w, rule, p.matcher, p.replace);
      continue;
    }
    if (keyMatches(p, key ?? "")) {
      if (w && chunked) applyRegex(w, rule, PATTERNS.anything, p.replace);
      else return DELETE;
    } else if (p.on === "keyvalue" && w && !gated) {
      applyRegex(w, rule, p.matcher, p.replace);
    }
  }
  return undefined;
}
