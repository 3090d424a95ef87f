// Message normalization for grouping: keep the first two non-empty lines (adding "..." when
// anything was cut) and replace event-specific values with placeholders, in the order of
// Sentry's `_parameterization_regex` (getsentry/sentry src/sentry/grouping/strategies/message.py
// `normalize_message_for_grouping`).
//
// In linear time. Sentry's pattern is one alternation run over the text; two of its branches
// backtrack quadratically on text that does not match them: the e-mail branch tries every
// position of a long run of e-mail characters (a megabyte of `x` took minutes), and
// `datetime.datetime\(.*?\)` scans to the end of the line from every `datetime.datetime(`.
// Both are found here by one pass over the text instead (a match of either starts wherever its
// condition holds, so it is known for every position at once), and the other branches, whose
// work at a position is bounded, stay one regular expression. The three are merged as the
// alternation would: the leftmost match wins, at the same position the earlier branch.

const IPV4_PART = String.raw`(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])`;
const H = "[0-9a-fA-F]";

/** The characters of an address's local part, and of its domain's labels. */
const LOCAL = String.raw`a-zA-Z0-9.!#$%&'*+/=?^_\x60{|}~-`;
const EMAIL = String.raw`[${LOCAL}]+@[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*`;

const DATE_BRANCHES = [
  String.raw`((\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\d\.\d+([+-][0-2]\d:[0-5]\d|Z))|`,
  String.raw`(\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\d([+-][0-2]\d:[0-5]\d|Z))|`,
  String.raw`(\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d([+-][0-2]\d:[0-5]\d|Z)))|`,
  String.raw`(\b(?:(Sun|Mon|Tue|Wed|Thu|Fri|Sat)\s+)?(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+`,
  String.raw`([\d]{1,2})\s+([\d]{2}:[\d]{2}:[\d]{2})\s+[\d]{4})|`,
  String.raw`(\b(?:(Sun|Mon|Tue|Wed|Thu|Fri|Sat),\s+)?(0[1-9]|[1-2]?[\d]|3[01])\s+`,
  String.raw`(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+(19[\d]{2}|[2-9][\d]{3})\s+`,
  String.raw`(2[0-3]|[0-1][\d]):([0-5][\d])(?::(60|[0-5][\d]))?\s+`,
  String.raw`([-\+][\d]{2}[0-5][\d]|(?:UT|GMT|(?:E|C|M|P)(?:ST|DT)|[A-IK-Z])))`,
].join("");
/** The date pattern's last branch: Python's repr of a datetime. */
const DATETIME_REPR = String.raw`(datetime.datetime\(.*?\))`;

/** Sentry's patterns, in its order; the e-mail one and the date one's last branch are matched by hand (below). */
export const SENTRY_PATTERNS: ReadonlyArray<readonly [string, string]> = [
  ["email", EMAIL],
  ["url", String.raw`\b(wss?|https?|ftp):\/\/[^\s/$.?#].[^\s]*`],
  [
    "ip",
    [
      `(`,
      `(${H}{1,4}:){7,7}${H}{1,4}|`,
      `(${H}{1,4}:){1,7}:|`,
      `(${H}{1,4}:){1,6}:${H}{1,4}|`,
      `(${H}{1,4}:){1,5}(:${H}{1,4}){1,2}|`,
      `(${H}{1,4}:){1,4}(:${H}{1,4}){1,3}|`,
      `(${H}{1,4}:){1,3}(:${H}{1,4}){1,4}|`,
      `(${H}{1,4}:){1,2}(:${H}{1,4}){1,5}|`,
      `${H}{1,4}:((:${H}{1,4}){1,6})|`,
      `:((:${H}{1,4}){1,7}|:)|`,
      `fe80:(:${H}{0,4}){0,4}%[0-9a-zA-Z]{1,}|`,
      `::(ffff(:0{1,4}){0,1}:){0,1}(${IPV4_PART}\\.){3,3}${IPV4_PART}|`,
      `(${H}{1,4}:){1,4}:(${IPV4_PART}\\.){3,3}${IPV4_PART}\\b`,
      `)|(`,
      `\\b(${IPV4_PART}\\.){3,3}${IPV4_PART}\\b`,
      `)`,
    ].join(""),
  ],
  ["uuid", String.raw`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`],
  ["sha1", String.raw`\b[0-9a-fA-F]{40}\b`],
  ["md5", String.raw`\b[0-9a-fA-F]{32}\b`],
  ["date", `${DATE_BRANCHES}|${DATETIME_REPR}`],
  ["hex", String.raw`\b0[xX][0-9a-fA-F]+\b`],
  ["float", String.raw`-\d+\.\d+\b|\b\d+\.\d+\b`],
  ["int", String.raw`-\d+\b|\b\d+\b`],
  ["quoted_str", String.raw`='([\w\s]+)'`],
];

/** The branches whose work at one position is bounded, as one expression: everything but e-mail and datetime(…). */
const OTHERS = SENTRY_PATTERNS.filter(([name]) => name !== "email").map(([name, re]) => [name, name === "date" ? DATE_BRANCHES : re] as const);
const OTHERS_RE = new RegExp(OTHERS.map(([name, re]) => `(?<${name}>${re})`).join("|"), "g");
/** Branches before `date` win over a datetime(…) at the same position; those after it lose. */
const BEFORE_DATETIME = new Set(["url", "ip", "uuid", "sha1", "md5", "date"]);

const placeholder = (name: string) => (name === "quoted_str" ? "=<quoted_str>" : `<${name}>`);

const code = (c: string) => c.charCodeAt(0);
const LOCAL_CHARS = new Set([..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.!#$%&'*+/=?^_`{|}~-"].map(code));
const isLocal = (c: number) => LOCAL_CHARS.has(c);
const isLabel = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45;
/** What `.` does not match without the `s` flag. */
const isLineTerminator = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

type Match = { start: number; end: number; name: string };

/**
 * Every run of local-part characters followed by "@" and a domain, with where its address ends. The e-mail branch
 * matches at each position of such a run (the local part runs to the "@" greedily) and nowhere else; without the
 * "@" and a domain, at no position of the run. One pass.
 */
function emailRuns(s: string): { start: number; runEnd: number; end: number }[] {
  const runs = [];
  const n = s.length;
  for (let i = 0; i < n; ) {
    if (!isLocal(s.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isLocal(s.charCodeAt(i))) i++;
    if (s.charCodeAt(i) !== 0x40 || !isLabel(s.charCodeAt(i + 1))) continue;
    // The domain: a label, then ".label" as long as one follows. Its characters are local-part ones too: the next run
    // starts after the "@", and is scanned again from there (each character at most twice in all).
    let end = i + 1;
    while (end < n && isLabel(s.charCodeAt(end))) end++;
    while (s.charCodeAt(end) === 0x2e && isLabel(s.charCodeAt(end + 1))) {
      end++;
      while (end < n && isLabel(s.charCodeAt(end))) end++;
    }
    runs.push({ start, runEnd: i, end });
  }
  return runs;
}

/** Where `datetime.datetime\(.*?\)` matches: from each such start to the first ")" on its line. One pass. */
function datetimeMatches(s: string): { start: number; end: number }[] {
  const out = [];
  const n = s.length;
  // The first ")" or line end at or after each position, filled from the end.
  let nextStop = n;
  const stops = new Int32Array(n + 1).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    const c = s.charCodeAt(i);
    if (c === 0x29 || isLineTerminator(c)) nextStop = i;
    stops[i] = nextStop;
  }
  for (let at = s.indexOf("datetime"); at >= 0; at = s.indexOf("datetime", at + 1)) {
    const open = at + 9;
    if (open + 9 > n || isLineTerminator(s.charCodeAt(at + 8)) || !s.startsWith("datetime(", open)) continue;
    const close = stops[open + 9]!;
    if (close < n && s.charCodeAt(close) === 0x29) out.push({ start: at, end: close + 1 });
  }
  return out;
}

export function parameterize(text: string): string {
  const emails = emailRuns(text);
  const datetimes = datetimeMatches(text);
  let e = 0;
  let d = 0;
  let other: Match | null | undefined;
  let out = "";
  let copied = 0;
  for (let p = 0; p < text.length; ) {
    // The e-mail branch at p, or at the first run after it.
    while (e < emails.length && emails[e]!.runEnd <= p) e++;
    const email = e < emails.length ? { start: Math.max(p, emails[e]!.start), end: emails[e]!.end, name: "email" } : null;
    while (d < datetimes.length && datetimes[d]!.start < p) d++;
    const datetime = d < datetimes.length ? { ...datetimes[d]!, name: "date" } : null;
    // The other branches' leftmost match at or after p; still valid while p has not passed it.
    if (other === undefined || (other !== null && other.start < p)) {
      OTHERS_RE.lastIndex = p;
      const m = OTHERS_RE.exec(text);
      const name = m?.groups ? OTHERS.find(([n]) => m.groups![n] !== undefined)?.[0] : undefined;
      other = m && name ? { start: m.index, end: m.index + m[0].length, name } : null;
    }
    let best: Match | null = email;
    if (other && (!best || other.start < best.start)) best = other;
    if (datetime && (!best || datetime.start < best.start || (datetime.start === best.start && best.name !== "email" && !BEFORE_DATETIME.has(best.name))))
      best = datetime;
    if (!best) break;
    out += text.slice(copied, best.start) + placeholder(best.name);
    copied = best.end;
    p = best.end;
  }
  return out + text.slice(copied);
}

/** Python's `str.splitlines()` line boundaries. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

export function trimToTwoLines(message: string): string {
  const lines = message.split(LINE_BREAK).filter((l) => l.trim() !== "");
  let trimmed = lines.slice(0, 2).join("\n");
  if (trimmed !== message) trimmed += "...";
  return trimmed;
}

export function normalizeMessageForGrouping(message: string): string {
  return parameterize(trimToTwoLines(message));
}
