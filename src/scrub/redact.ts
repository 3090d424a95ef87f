// Applying one rule to one value (relay-pii processor.rs `apply_rule_to_value` and `apply_regex_to_chunks`): a
// container or a removal rule deletes the value; a string is cut into chunks (text, and redactions already made,
// which later rules do not look into) and each match is replaced by the rule's redaction.
import { createHash, type Hash } from "node:crypto";
import type { CompiledRule, Replace, RulePattern } from "./compiled";
import { codePoints, isRedaction, joinChunks, splitChunks, type Chunk, type Remark } from "./meta";
import { PATTERNS, type Matcher } from "./patterns";

/** A string value under scrubbing, with the remarks its meta carries (from this walk or an earlier config). */
export type Working = { value: string; remarks: Remark[]; len: number | undefined; changed: boolean };

/** Returned when the rule deletes the value (Relay's `ProcessingAction::DeleteValueHard`). */
export const DELETE = Symbol("delete");

/** HMAC-SHA1's two keyed states (RFC 2104), per key: each value then costs two copies instead of a new HMAC. */
const keyed = new Map<string, { inner: Hash; outer: Hash }>();

function keyedStates(key: string): { inner: Hash; outer: Hash } {
  let states = keyed.get(key);
  if (!states) {
    const block = Buffer.alloc(64);
    const raw = Buffer.from(key, "utf8");
    (raw.byteLength > 64 ? createHash("sha1").update(raw).digest() : raw).copy(block);
    states = { inner: createHash("sha1").update(block.map((b) => b ^ 0x36)), outer: createHash("sha1").update(block.map((b) => b ^ 0x5c)) };
    if (keyed.size >= 64) keyed.clear();
    keyed.set(key, states);
  }
  return states;
}

/** processor.rs `hash_value`: HMAC-SHA1 (keyed with `vars.hashKey`, empty by default), upper-case hex. */
export function hash(text: string, key: string): string {
  const { inner, outer } = keyedStates(key);
  return outer.copy().update(inner.copy().update(text, "utf8").digest()).digest("hex").toUpperCase();
}

function replacement(rule: CompiledRule, text: string): Chunk {
  const r = rule.redaction;
  switch (r.method) {
    case "mask":
      return { text: "*".repeat(codePoints(text)), rule: rule.origin, type: "m" };
    case "hash":
      return { text: hash(text, rule.hashKey), rule: rule.origin, type: "p" };
    case "replace":
      return { text: r.text, rule: rule.origin, type: "s" };
    default:
      return { text: "", rule: rule.origin, type: "x" };
  }
}

function applyRegex(w: Working, rule: CompiledRule, matcher: Matcher, replace: Replace): void {
  // Most values carry no redaction yet, and most patterns find nothing: then the value itself is searched and
  // nothing is allocated before a match.
  const plain = !w.remarks.some(isRanged);
  let search = "";
  let hasText = plain;
  const redactions: Chunk[] = [];
  if (plain) search = w.value.includes("\u0000") ? w.value.replaceAll("\u0000", "") : w.value;
  else {
    for (const c of splitChunks(w.value, w.remarks)) {
      if (isRedaction(c)) {
        search += "\u0000";
        redactions.push(c);
      } else {
        hasText = true;
        search += c.text.replaceAll("\u0000", "");
      }
    }
  }
  if (!hasText) return;
  let out: Chunk[];
  if (replace === "value") {
    if (!matcher.test(search)) return;
    out = [replacement(rule, search)];
  } else {
    const found = matcher.all(search);
    if (found.length === 0) return;
    out = [];
    let next = 0;
    const text = (t: string) => {
      if (t === "") return;
      let pos = 0;
      for (let i = t.indexOf("\u0000"); i >= 0; i = t.indexOf("\u0000", pos)) {
        out.push({ text: t.slice(pos, i) });
        const r = redactions[next++];
        if (r) out.push(r);
        pos = i + 1;
      }
      out.push({ text: t.slice(pos) });
    };
    let pos = 0;
    for (const groups of found) {
      groups.forEach((g, idx) => {
        if (!g || !replace.includes(idx) || g[0] < pos) return;
        text(search.slice(pos, g[0]));
        out.push(replacement(rule, search.slice(g[0], g[1])));
        pos = g[1];
      });
    }
    text(search.slice(pos));
  }
  const joined = joinChunks(out);
  if (joined.value !== w.value) {
    if (w.len === undefined) w.len = codePoints(w.value);
    w.value = joined.value;
    w.remarks = joined.remarks;
    w.changed = true;
  }
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
