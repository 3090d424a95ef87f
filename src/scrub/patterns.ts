// The regular expressions of Relay's built-in rule types (relay-pii src/regexes.rs), as native RegExp: each is
// linear, or runs natively only on short texts and in re2js past them (boundedMatcher), behind a cheap substring test
// that keeps it off strings it cannot match.
// User patterns go through re2js (a linear-time RE2 port), as Relay's own `regex` crate is linear-time.
import { RE2JS } from "re2js";
import { SCRUB_LIMITS } from "../config/limits";
import { nativeExact, nativePrefilter } from "./native-prefilter";

/** One match: `[start, end]` in UTF-16 units per group (0 = whole match), or undefined for a group that did not take part. */
export type Groups = ([number, number] | undefined)[];

/** A gate's source, and whether it ignores case. */
export type Gate = { source: string; ci: boolean };

export interface Matcher {
  /** A regular expression that matches wherever the pattern could (a necessary condition, cheap), or null if unknown. */
  readonly gate?: Gate | null;
  /** A user pattern's native prefilter (native-prefilter.ts), when it has no literal gate: also a necessary condition. */
  readonly prefilter?: RegExp | null;
  /** Whether the pattern matches anywhere in `text`. */
  test(text: string): boolean;
  /** All non-overlapping matches, left to right (an empty match right after a match is skipped, as Rust's `regex` does). */
  all(text: string): Groups[];
}

/** No match: shared, never written (most searches find nothing). */
const NONE: Groups[] = Object.freeze([]) as unknown as Groups[];

/** A native RegExp (compiled with the `g` and `d` flags), with an optional cheap prefilter. */
export function nativeMatcher(source: string, flags: string, prefilter?: (text: string) => boolean, gate: Gate | null = null): Matcher {
  const finder = new RegExp(source, flags + "gd");
  const tester = new RegExp(source, flags);
  return {
    gate,
    test: (text) => (prefilter === undefined || prefilter(text)) && tester.test(text),
    all(text) {
      if (prefilter !== undefined && !prefilter(text)) return NONE;
      let out: Groups[] = NONE;
      finder.lastIndex = 0;
      let lastEnd = -1;
      for (let m = finder.exec(text); m !== null; m = finder.exec(text)) {
        const whole = m.indices![0]!;
        if (whole[0] === whole[1]) {
          finder.lastIndex = whole[1] + 1;
          if (whole[0] === lastEnd) continue;
        }
        lastEnd = whole[1];
        if (out === NONE) out = [];
        out.push(m.indices!.map((g) => (g ? [g[0], g[1]] : undefined)));
      }
      return out;
    },
  };
}

/**
 * A built-in pattern that backtracks on some texts (an unbounded run tried from every start): natively on texts up
 * to SCRUB_LIMITS.nativePatternMaxLength, through re2js past it. Both give the same leftmost-first matches (the
 * patterns use nothing RE2 lacks); only case folding differs, for characters outside ASCII, and a case-insensitive
 * pattern is then the more eager one in RE2 (it scrubs more, never less).
 */
function boundedMatcher(source: string, flags: "" | "i", prefilter: (text: string) => boolean, gate: Gate): Matcher {
  // The prefilter is tested here once, before either engine.
  const native = nativeMatcher(source, flags, undefined, gate);
  const linear = re2Matcher(source, flags === "i");
  return {
    gate,
    test: (text) => prefilter(text) && (short(text) ? native.test(text) : linear.test(text)),
    all: (text) => (!prefilter(text) ? NONE : short(text) ? native.all(text) : linear.all(text)),
  };
}

/** A text short enough for a native pattern that may backtrack (SCRUB_LIMITS.nativePatternMaxLength). */
export const short = (text: string) => text.length <= SCRUB_LIMITS.nativePatternMaxLength;

/**
 * The whole matches of `re` (a pattern without context assertions, native-prefilter.ts `nativeEquivalent`) left to
 * right, each found by searching the rest of the string after the previous one (an empty match right after a match
 * skipped, as Rust's `regex` does). Only group 0 is reported.
 */
function wholeMatches(re: RegExp, text: string): Groups[] {
  let out: Groups[] = NONE;
  let from = 0;
  let lastEnd = -1;
  while (from <= text.length) {
    const m = re.exec(from === 0 ? text : text.slice(from));
    if (m === null) break;
    const start = from + m.index;
    const end = start + m[0].length;
    if (start === end) {
      from = end + 1;
      if (start === lastEnd) continue;
    } else from = end;
    lastEnd = end;
    if (out === NONE) out = [];
    out.push([[start, end]]);
  }
  return out;
}

/**
 * A user pattern through re2js (linear time); throws RE2JSSyntaxException on a bad pattern. With `wholeOnly` (only
 * group 0 of each match is used), a pattern V8 runs exactly as RE2 does is searched natively.
 */
export function re2Matcher(pattern: string, caseInsensitive: boolean, wholeOnly = false): Matcher & { programSize: number } {
  const re = RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  const groups = re.groupCount();
  // The literal every match starts with, as RE2 works it out (re2js keeps it on the compiled program): a substring
  // test rules out most strings before the engine runs. Not used when case is folded.
  const internal = (re as unknown as { re2Input?: { prefix?: unknown } }).re2Input;
  const prefix = !caseInsensitive && typeof internal?.prefix === "string" ? internal.prefix : "";
  const literals = prefix === "" ? literalAlternatives(pattern, caseInsensitive) : null;
  const literalGate = literals ? new RegExp(literals.source, literals.ci ? "i" : "") : null;
  // A pattern V8 runs exactly as RE2 does is tested natively on short texts; otherwise re2js's DFA runs (without
  // building a Matcher: several times cheaper on the usual string that does not match), behind a literal or a native
  // prefilter. Natively, a pattern that backtracks does so from every start of a long run, and V8's fallback to linear
  // time counts the backtracks of one start only: `[a-z.]+@x` took a second on 40 KB of "a.". Past
  // SCRUB_LIMITS.nativePatternMaxLength neither the native pattern nor the native prefilter runs.
  const exact = nativeExact(pattern, caseInsensitive);
  const prefilter = exact ? exact.re : prefix === "" && !literalGate ? nativePrefilter(pattern, caseInsensitive) : null;
  const test = exact
    ? (text: string) => (short(text) ? exact.re.test(text) : re.test(text))
    : prefix !== ""
      ? (text: string) => text.includes(prefix) && re.test(text)
      : literalGate
        ? (text: string) => literalGate.test(text) && re.test(text)
        : prefilter
          ? (text: string) => (!short(text) || prefilter.test(text)) && re.test(text)
          : (text: string) => re.test(text);
  const native = wholeOnly && exact && !exact.contextual ? exact.re : null;
  return {
    programSize: re.programSize(),
    prefilter: prefix === "" && !literalGate ? prefilter : null,
    gate: prefix !== "" ? { source: escape(prefix), ci: false } : literals,
    test,
    all(text) {
      if (!test(text)) return NONE;
      if (native !== null && short(text)) return wholeMatches(native, text);
      const m = re.matcher(text);
      const out: Groups[] = [];
      let lastEnd = -1;
      let from = 0;
      while (from <= text.length && m.find(from)) {
        const start = m.start();
        const end = m.end();
        if (start === end) {
          from = end + 1;
          if (start === lastEnd) continue;
        } else from = end;
        lastEnd = end;
        const g: Groups = [[start, end]];
        for (let i = 1; i <= groups; i++) {
          const s = m.start(i);
          g.push(s < 0 ? undefined : [s, m.end(i)]);
        }
        out.push(g);
      }
      return out;
    },
  };
}

/** The last string lower-cased: several prefilters ask for the same value in a row. */
let lastText = "";
let lastLower = "";
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/**
 * The literal words a user pattern must contain where RE2 finds no literal prefix, for two plain shapes only (the
 * gate must never refuse a string the pattern matches): an alternation of plain words (`(?i)tenant|customer_id`),
 * or a leading group of plain words not followed by a quantifier (`(?i)(street|road) [0-9]+`).
 */
function literalAlternatives(pattern: string, caseInsensitive: boolean): Gate | null {
  let p = pattern;
  let ci = caseInsensitive;
  if (p.startsWith("(?i)")) {
    ci = true;
    p = p.slice(4);
  }
  const words = (text: string) => {
    const parts = text.split("|");
    return parts.every((w) => /^[A-Za-z0-9_ -]{2,}$/.test(w)) ? parts : null;
  };
  let found = words(p);
  if (!found && p.startsWith("(") && !p.startsWith("(?")) {
    const close = p.indexOf(")");
    const after = p[close + 1];
    if (close > 0 && !/^[?*+{]$/.test(after ?? "") && !p.slice(close + 1).includes("|")) found = words(p.slice(1, close));
  }
  return found ? { source: found.map(escape).join("|"), ci } : null;
}

const lower = (text: string) => {
  if (text !== lastText) {
    lastText = text;
    lastLower = text.toLowerCase();
  }
  return lastLower;
};

const V4S = "(25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)";
const V4A = `${V4S}\\.${V4S}\\.${V4S}\\.${V4S}`;
const V6S = "[0-9a-fA-F]{1,4}";
/** `[[:punct:]]` of Rust's regex: ASCII punctuation. */
const PUNCT = "!-\\/:-@\\[-`{-~";

const IPV6 =
  `(?:[\\s${PUNCT}]|^)(` +
  `(${V6S}:){7}${V6S}|(${V6S}:){1,7}:|(${V6S}:){1,6}::${V6S}|(${V6S}:){1,5}:(:${V6S}){1,2}|` +
  `(${V6S}:){1,4}:(:${V6S}){1,3}|(${V6S}:){1,3}:(:${V6S}){1,4}|(${V6S}:){1,2}:(:${V6S}){1,5}|` +
  `${V6S}:((:${V6S}){1,6})|:((:${V6S}){1,7}|:)|fe80:(:${V6S}){0,4}%[0-9a-zA-Z]{1,}` +
  `::(ffff(:0{1,4}){0,1}:){0,1}${V4A}|(${V6S}:){1,4}:${V4A}` +
  `)(?:[\\s${PUNCT}]|$)`;

const IBAN_COUNTRIES =
  "AT|AD|AE|AL|AZ|BA|BE|BG|BH|BR|BY|CH|CR|CY|CZ|DE|DK|DO|EE|EG|ES|FI|FO|FR|GB|GE|GI|GL|GR|GT|HR|HU|IE|IL|IQ|IS|IT|JO|KW|KZ|LB|LC|LI|LT|LU|LV|LY|MC|MD|ME|MK|MR|MT|MU|NL|NO|PK|PL|PS|PT|QA|RO|RU|RS|SA|SC|SE|SI|SK|SM|ST|SV|TL|TN|TR|UA|VA|VG|XK|DZ|AO|BJ|BF|BI|CV|CM|CF|TD|KM|CG|CI|DJ|GQ|GA|GW|HN|IR|MG|ML|MA|MZ|NI|NE|SN|TG";

const DIGIT_RUNS = [/\d/, /\d\d/, /\d\d\d/];
const hasDigits = (n: 1 | 2 | 3) => {
  const re = DIGIT_RUNS[n - 1]!;
  return (text: string) => re.test(text);
};

const cs = (source: string): Gate => ({ source, ci: false });
const ci = (source: string): Gate => ({ source, ci: true });

const PASSWORD_WORDS = "password|secret|passwd|api[-_]key|apikey|auth|credentials|mysql_pwd|privatekey|private[-_]key|^otp$|^two[-_]factor$";
const PASSWORD_KEY = `(${PASSWORD_WORDS.replace("|^otp$", "|token[^\\s]*[:=]|^otp$")})`;

const TOKEN = /token/gi;
const TOKEN_RUN_END = /[\s:=]/g;
/**
 * `token[^\s]*[:=]` anywhere in `text`, in one pass: natively, every "token" of a long run without a space scanned to
 * the run's end (quadratic: 2 s for 100 KB of "token"). A "token" matches when a `:` or `=` comes before the next
 * whitespace; when whitespace comes first, no "token" before it can match either, and the search goes on after it.
 */
function tokenAssigned(text: string): boolean {
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    TOKEN_RUN_END.lastIndex = m.index + 5;
    const end = TOKEN_RUN_END.exec(text);
    if (end === null) return false;
    if (end[0] === ":" || end[0] === "=") return true;
    TOKEN.lastIndex = end.index + 1;
  }
  return false;
}

/** Relay's password key pattern: its words natively, its `token…=` in one pass, its matches (unused: it replaces whole values) in re2js. */
function passwordKeyMatcher(): Matcher {
  const words = new RegExp(PASSWORD_WORDS, "i");
  const linear = re2Matcher(PASSWORD_KEY, true);
  return {
    // A necessary condition with "token" as a plain word: the union of gates runs on every string scrubbed.
    gate: ci(PASSWORD_WORDS.replace("|^otp$", "|token|^otp$")),
    test: (text) => words.test(text) || tokenAssigned(text),
    all: (text) => linear.all(text),
  };
}

/** relay-pii regexes.rs, one per built-in rule type; each with a cheap gate (see `Matcher.gate`). */
export const PATTERNS = {
  anything: nativeMatcher(".*", ""),
  imei: nativeMatcher("\\b(\\d{2}-?\\d{6}-?\\d{6}-?\\d{1,2})\\b", "", hasDigits(2), cs("\\d{6}-?\\d{6}")),
  mac: nativeMatcher("\\b([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}\\b", "", (t) => t.includes(":") || t.includes("-"), ci("[0-9a-f]{2}[:-][0-9a-f]{2}[:-]")),
  uuid: nativeMatcher(
    "\\b[a-z0-9]{8}-?[a-z0-9]{4}-?[a-z0-9]{4}-?[a-z0-9]{4}-?[a-z0-9]{12}\\b",
    "i",
    (t) => t.length >= 32,
    ci("[a-z0-9]{8}-?[a-z0-9]{4}-?[a-z0-9]{4}"),
  ),
  email: boundedMatcher(
    "\\b[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)*\\.[a-zA-Z]{2,}\\b",
    "",
    (t) => t.includes("@"),
    cs("[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]@[a-zA-Z0-9-]"),
  ),
  iban: nativeMatcher(`\\b(${IBAN_COUNTRIES})\\d{2}[a-zA-Z0-9]{11,29}\\b`, "", hasDigits(2), cs(`(?:${IBAN_COUNTRIES})\\d{2}[a-zA-Z0-9]{11}`)),
  ipv4: nativeMatcher(`\\b${V4A}\\b`, "", (t) => t.includes("."), cs("\\d\\.\\d{1,3}\\.\\d")),
  ipv6: nativeMatcher(IPV6, "i", (t) => t.includes(":"), ci("[0-9a-f]:[0-9a-f]|::")),
  creditcard: nativeMatcher(
    "\\b((?:3[47]\\d|4\\d{3}|5[1-5]\\d\\d|65\\d\\d|6011)([-\\s]?\\d){12})\\b",
    "",
    hasDigits(3),
    cs("(?:3[47]\\d|4\\d{3}|5[1-5]\\d\\d|65\\d\\d|6011)[-\\s]?\\d[-\\s]?\\d"),
  ),
  userpath: boundedMatcher(
    "(?:(?:\\b(?:[a-zA-Z]:[\\\\/])?(?:users|home|documents and settings|[^/\\\\]+[/\\\\]profiles)[\\\\/])|(?:/(?:home|users)/))([^/\\\\\\r\\n\\x00]+)",
    "i",
    (t) => {
      const l = lower(t);
      return l.includes("users") || l.includes("home") || l.includes("documents and settings") || l.includes("profiles");
    },
    ci("users|home|documents and settings|profiles"),
  ),
  pemkey: boundedMatcher(
    "(?:-----BEGIN[A-Z ]+(?:PRIVATE|PUBLIC) KEY-----[\\t ]*\\r?\\n?)([\\s\\S]+?)(?:\\r?\\n?-----END[A-Z ]+(?:PRIVATE|PUBLIC) KEY-----)",
    "",
    (t) => t.includes("-----BEGIN") && t.includes("-----END"),
    cs("-----BEGIN"),
  ),
  urlauth: boundedMatcher(
    "\\b(?:(?:[a-z0-9+-]+:)?//([a-zA-Z0-9%_.-]+(?::[a-zA-Z0-9%_.-]+)?))@",
    "",
    (t) => t.includes("//") && t.includes("@"),
    cs("//[a-zA-Z0-9%_.:-]+@"),
  ),
  urlauthLegacy: boundedMatcher(
    "\\b((?:[a-z0-9]+:)?//[a-zA-Z0-9%_.-]+:)([a-zA-Z0-9%_.-]+)@",
    "",
    (t) => t.includes("//") && t.includes("@"),
    cs("//[a-zA-Z0-9%_.-]+:[a-zA-Z0-9%_.-]+@"),
  ),
  usssn: nativeMatcher("\\b([0-9]{3}-[0-9]{2}-[0-9]{4})\\b", "", (t) => t.includes("-"), cs("\\d{3}-\\d\\d-\\d{4}")),
  bearer: nativeMatcher("\\b(Bearer\\s+)([^\\s]+)", "i", (t) => lower(t).includes("bearer"), ci("bearer\\s")),
  tokenKey: nativeMatcher("(token)", "i", (t) => lower(t).includes("token"), ci("token")),
  passwordKey: passwordKeyMatcher(),
} satisfies Record<string, Matcher>;
