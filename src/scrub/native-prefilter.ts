// A native prefilter for a user's RE2 pattern: a JavaScript RegExp that matches every string the pattern matches
// (it may match more, never less), so that the usual string, which the pattern does not match, is ruled out at
// native speed before re2js (linear time, but interpreted in JavaScript: about six times slower) runs at all.
//
// Only a plain subset of RE2's syntax is translated (ASCII literals and escapes, `.`, classes of ASCII members,
// `\d \w \s \b`, groups, alternation, greedy and lazy quantifiers, `^ $`, a leading `(?i)`); anything else gets no
// prefilter and runs on re2js alone. The translation never uses a flag, because V8's linear-time engine knows no
// flags here: a prefilter is only used when V8 accepts it for that engine (the `l` flag compiles), so that with
// `--enable-experimental-regexp-engine-on-excessive-backtracks` a pattern that backtracks badly (`(a+)+$`) falls
// back to linear time after a bounded number of backtracks (V8's `--regexp-backtracks-before-fallback`) instead of
// running for minutes. Case-insensitivity is spelled out per letter, with the two non-ASCII characters Unicode's
// simple case folding adds to ASCII letters (U+212A KELVIN SIGN for k, U+017F LATIN SMALL LETTER LONG S for s), as
// RE2 folds them. `.` and negated classes take a surrogate pair as one character, as RE2 takes a code point.
import v8 from "node:v8";

/** Whether V8 runs native patterns that backtrack too much again in linear time (set once, for the whole process). */
export const linearFallback: boolean = enableLinearFallback();

function enableLinearFallback(): boolean {
  try {
    v8.setFlagsFromString("--enable-experimental-regexp-engine");
    v8.setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks");
    new RegExp("a", "l");
    return true;
  } catch {
    return false;
  }
}

const ANY = "(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[^\\n])";
const negated = (members: string) => `(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[^${members}])`;
const PERL: Record<string, string> = { d: "0-9", w: "0-9A-Za-z_", s: "\\t\\n\\f\\r " };
const FOLD_EXTRA: Record<string, string> = { k: "\\u212A", s: "\\u017F" };
const CONTROL: Record<string, string> = { n: "\\n", t: "\\t", r: "\\r", f: "\\f", v: "\\v", a: "\\x07" };

class Unsupported extends Error {}

/** A class member or literal character as it is written inside `[...]`. */
function classChar(c: string): string {
  return /[\\\]^-]/.test(c) ? `\\${c}` : c;
}

/** The members of a class for the letters `lo`..`hi` under case folding (ASCII ranges only). */
function foldedRange(lo: number, hi: number): string {
  let out = "";
  for (let c = lo; c <= hi; c++) {
    const ch = String.fromCharCode(c);
    const other = /[a-z]/.test(ch) ? ch.toUpperCase() : /[A-Z]/.test(ch) ? ch.toLowerCase() : "";
    if (other !== "" && (other.charCodeAt(0) < lo || other.charCodeAt(0) > hi)) out += classChar(other);
    const extra = FOLD_EXTRA[ch.toLowerCase()];
    if (extra) out += extra;
  }
  return out;
}

class Translator {
  private i = 0;
  /** Whether the pattern asserts on its context (`^`, `$`, `\b`, `\B`): then a match depends on what surrounds it. */
  contextual = false;
  /**
   * @param cap the largest count a repetition keeps (V8's linear engine unrolls counted repetitions, up to 16
   * copies in all): `{n,m}` above it becomes `{min(n, cap),}`, which matches wherever the original does.
   */
  constructor(
    private readonly p: string,
    private readonly fold: boolean,
    private readonly cap: number,
  ) {}

  run(): string {
    const out = this.alternation();
    if (this.i < this.p.length) throw new Unsupported();
    return out;
  }

  private alternation(): string {
    const parts = [this.sequence()];
    while (this.p[this.i] === "|") {
      this.i++;
      parts.push(this.sequence());
    }
    return parts.join("|");
  }

  private sequence(): string {
    let out = "";
    while (this.i < this.p.length && this.p[this.i] !== "|" && this.p[this.i] !== ")") {
      const atom = this.atom();
      out += atom.text + (atom.repeatable ? this.quantifier() : "");
    }
    return out;
  }

  private quantifier(): string {
    let q = "";
    const c = this.p[this.i];
    if (c === "*" || c === "+" || c === "?") {
      q = c;
      this.i++;
    } else if (c === "{") {
      const m = /^\{(\d{1,4})(,(\d{1,4})?)?\}/.exec(this.p.slice(this.i));
      if (!m) throw new Unsupported(); // RE2 reads a `{` that is not a repetition as a literal: left to re2js
      const [min, max] = [Number(m[1]), m[3] === undefined ? (m[2] ? Infinity : Number(m[1])) : Number(m[3])];
      if (max < min) throw new Unsupported();
      q = max <= this.cap ? m[0] : `{${Math.min(min, this.cap)},}`;
      this.i += m[0].length;
    } else return "";
    if (this.p[this.i] === "?") {
      q += "?";
      this.i++;
    }
    if (/^[*+?{]/.test(this.p[this.i] ?? "")) throw new Unsupported(); // `a**` is an error in RE2
    return q;
  }

  private atom(): { text: string; repeatable: boolean } {
    const c = this.p[this.i]!;
    if (c === "(") return { text: this.group(), repeatable: true };
    if (c === "[") return { text: this.cls(), repeatable: true };
    if (c === ".") {
      this.i++;
      return { text: ANY, repeatable: true };
    }
    if (c === "^" || c === "$") {
      this.contextual = true;
      this.i++;
      return { text: c, repeatable: false };
    }
    if (c === "\\") return this.escape();
    if (/[*+?{}\]]/.test(c)) throw new Unsupported();
    this.i++;
    return { text: this.literal(c), repeatable: true };
  }

  private literal(c: string): string {
    const code = c.charCodeAt(0);
    if (code >= 0x80) {
      if (this.fold || (code >= 0xd800 && code <= 0xdfff)) throw new Unsupported();
      return c;
    }
    if (this.fold && /[A-Za-z]/.test(c)) return `[${c.toLowerCase()}${c.toUpperCase()}${FOLD_EXTRA[c.toLowerCase()] ?? ""}]`;
    return /[\\^$.|?*+()[\]{}/]/.test(c) ? `\\${c}` : c;
  }

  private escape(): { text: string; repeatable: boolean } {
    const c = this.p[this.i + 1];
    if (c === undefined) throw new Unsupported();
    this.i += 2;
    if (c === "b" || c === "B") {
      this.contextual = true;
      return { text: `\\${c}`, repeatable: false };
    }
    const perl = PERL[c.toLowerCase()];
    if (perl !== undefined) {
      const members = c === "w" || c === "W" ? perl + (this.fold ? "\\u212A\\u017F" : "") : perl;
      return { text: c === c.toLowerCase() ? `[${members}]` : negated(members), repeatable: true };
    }
    if (CONTROL[c] !== undefined) return { text: CONTROL[c]!, repeatable: true };
    if (/[!-\/:-@[-`{-~]/.test(c)) return { text: this.literal(c), repeatable: true };
    throw new Unsupported(); // \pN, \x, octal, \A, \z, \Q…\E, \C: left to re2js
  }

  private group(): string {
    this.i++;
    let prefix = "(";
    if (this.p[this.i] === "?") {
      if (this.p.startsWith("?:", this.i)) {
        prefix = "(?:";
        this.i += 2;
      } else {
        const named = /^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(this.p.slice(this.i));
        if (!named) throw new Unsupported(); // inline flags inside the pattern
        prefix = "(?:";
        this.i += named[0].length;
      }
    }
    const inner = this.alternation();
    if (this.p[this.i] !== ")") throw new Unsupported();
    this.i++;
    return `${prefix}${inner})`;
  }

  private classMember(): { lo: number; hi: number } | { perl: string } {
    const c = this.p[this.i];
    if (c === undefined) throw new Unsupported();
    if (c === "[") throw new Unsupported(); // [[:alpha:]] and nested classes
    if (c === "\\") {
      const e = this.p[this.i + 1];
      if (e === undefined) throw new Unsupported();
      this.i += 2;
      if (e === "d" || e === "w" || e === "s") return { perl: PERL[e]! + (e === "w" && this.fold ? "\\u212A\\u017F" : "") };
      if (CONTROL[e] !== undefined) {
        const code = { n: 10, t: 9, r: 13, f: 12, v: 11, a: 7 }[e as "n"]!;
        return { lo: code, hi: code };
      }
      if (/[!-\/:-@[-`{-~]/.test(e)) return { lo: e.charCodeAt(0), hi: e.charCodeAt(0) };
      throw new Unsupported();
    }
    const code = c.charCodeAt(0);
    if (code >= 0x80) throw new Unsupported();
    this.i++;
    return { lo: code, hi: code };
  }

  private cls(): string {
    this.i++;
    let negate = false;
    if (this.p[this.i] === "^") {
      negate = true;
      this.i++;
    }
    let members = "";
    let first = true;
    while (this.p[this.i] !== "]" || first) {
      if (this.i >= this.p.length) throw new Unsupported();
      first = false;
      const m = this.classMember();
      if ("perl" in m) {
        members += m.perl;
        continue;
      }
      const lo = m.lo;
      let hi = m.hi;
      if (this.p[this.i] === "-" && this.p[this.i + 1] !== "]" && this.p[this.i + 1] !== undefined) {
        this.i++;
        const end = this.classMember();
        if ("perl" in end || end.lo < lo) throw new Unsupported();
        hi = end.hi;
      }
      const from = String.fromCharCode(lo);
      const to = String.fromCharCode(hi);
      members += lo === hi ? classChar(from) : `${classChar(from)}-${classChar(to)}`;
      if (this.fold) members += foldedRange(lo, hi);
    }
    this.i++;
    if (members === "") throw new Unsupported();
    return negate ? negated(members) : `[${members}]`;
  }
}

function leadingFlag(pattern: string, caseInsensitive: boolean): { p: string; fold: boolean } {
  return pattern.startsWith("(?i)") ? { p: pattern.slice(4), fold: true } : { p: pattern, fold: caseInsensitive };
}

/** The translation with counts up to `cap`, when V8's linear-time engine can run it; null when it cannot. */
function linear(p: string, fold: boolean, cap: number): { re: RegExp; contextual: boolean } | null | "unsupported" {
  const t = new Translator(p, fold, cap);
  let source: string;
  try {
    source = t.run();
  } catch {
    return "unsupported";
  }
  try {
    new RegExp(source, "l"); // throws unless V8's linear-time engine can run it
    return { re: new RegExp(source), contextual: t.contextual };
  } catch {
    return null;
  }
}

/**
 * The prefilter of an RE2 pattern, or null when the pattern is outside the translated subset or V8 could not run
 * it in linear time when it backtracks too much.
 */
export function nativePrefilter(pattern: string, caseInsensitive: boolean): RegExp | null {
  if (!linearFallback) return null;
  const { p, fold } = leadingFlag(pattern, caseInsensitive);
  for (const cap of [16, 4, 1]) {
    const found = linear(p, fold, cap);
    if (found === "unsupported") return null;
    if (found) return found.re;
    // too many copies for the linear engine: again with lower counts
  }
  return null;
}

/**
 * The same pattern natively, matching exactly where RE2 matches (counts kept), when V8's linear-time engine can run
 * it, with whether it asserts on its context (`^ $ \b \B`). Null otherwise.
 */
export function nativeExact(pattern: string, caseInsensitive: boolean): { re: RegExp; contextual: boolean } | null {
  if (!linearFallback) return null;
  const { p, fold } = leadingFlag(pattern, caseInsensitive);
  const found = linear(p, fold, Infinity);
  return found && found !== "unsupported" ? found : null;
}

/**
 * The same pattern natively for a pattern that makes no assertion on its context: a search from any position of a
 * string then finds what RE2 finds from there, so the matches of a string are found by searching its rest after
 * each one. Null otherwise.
 */
export function nativeEquivalent(pattern: string, caseInsensitive: boolean): RegExp | null {
  const found = nativeExact(pattern, caseInsensitive);
  return found && !found.contextual ? found.re : null;
}
