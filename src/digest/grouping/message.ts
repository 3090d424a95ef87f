// Message normalization for grouping: keep the first two non-empty lines (adding "..." when
// anything was cut) and replace event-specific values with placeholders, in the order of
// Sentry's `_parameterization_regex` (getsentry/sentry src/sentry/grouping/strategies/message.py
// `normalize_message_for_grouping`).

const IPV4_PART = String.raw`(25[0-5]|(2[0-4]|1{0,1}[0-9]){0,1}[0-9])`;
const H = "[0-9a-fA-F]";

const PATTERNS: ReadonlyArray<readonly [string, string]> = [
  ["email", String.raw`[a-zA-Z0-9.!#$%&'*+/=?^_\x60{|}~-]+@[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)*`],
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
  [
    "date",
    [
      String.raw`((\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\d\.\d+([+-][0-2]\d:[0-5]\d|Z))|`,
      String.raw`(\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-5]\d([+-][0-2]\d:[0-5]\d|Z))|`,
      String.raw`(\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d([+-][0-2]\d:[0-5]\d|Z)))|`,
      String.raw`(\b(?:(Sun|Mon|Tue|Wed|Thu|Fri|Sat)\s+)?(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+`,
      String.raw`([\d]{1,2})\s+([\d]{2}:[\d]{2}:[\d]{2})\s+[\d]{4})|`,
      String.raw`(\b(?:(Sun|Mon|Tue|Wed|Thu|Fri|Sat),\s+)?(0[1-9]|[1-2]?[\d]|3[01])\s+`,
      String.raw`(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+(19[\d]{2}|[2-9][\d]{3})\s+`,
      String.raw`(2[0-3]|[0-1][\d]):([0-5][\d])(?::(60|[0-5][\d]))?\s+`,
      String.raw`([-\+][\d]{2}[0-5][\d]|(?:UT|GMT|(?:E|C|M|P)(?:ST|DT)|[A-IK-Z])))|`,
      String.raw`(datetime.datetime\(.*?\))`,
    ].join(""),
  ],
  ["hex", String.raw`\b0[xX][0-9a-fA-F]+\b`],
  ["float", String.raw`-\d+\.\d+\b|\b\d+\.\d+\b`],
  ["int", String.raw`-\d+\b|\b\d+\b`],
  ["quoted_str", String.raw`='([\w\s]+)'`],
];

const PARAMETERIZATION = new RegExp(PATTERNS.map(([name, re]) => `(?<${name}>${re})`).join("|"), "g");
const NAMES = PATTERNS.map(([name]) => name);

/** Python's `str.splitlines()` line boundaries. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

export function trimToTwoLines(message: string): string {
  const lines = message.split(LINE_BREAK).filter((l) => l.trim() !== "");
  let trimmed = lines.slice(0, 2).join("\n");
  if (trimmed !== message) trimmed += "...";
  return trimmed;
}

export function parameterize(text: string): string {
  return text.replace(PARAMETERIZATION, (...args: unknown[]) => {
    const groups = args[args.length - 1] as Record<string, string | undefined>;
    for (const name of NAMES) {
      if (groups[name] !== undefined) return name === "quoted_str" ? "=<quoted_str>" : `<${name}>`;
    }
    return "";
  });
}

export function normalizeMessageForGrouping(message: string): string {
  return parameterize(trimToTwoLines(message));
}
