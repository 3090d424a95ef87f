// The browser and operating system a User-Agent header names, for feedback sent without a browser context (the
// browser SDKs send the header, and Relay derives contexts.browser and contexts.os from it with uap-core; Faultline's
// normalization does not, so the feedback inbox reads the common browsers here). Anything else: null.

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+(?:\.\d+)?)/, "Edge"],
  [/\bOPR\/(\d+(?:\.\d+)?)/, "Opera"],
  [/\bFirefox\/(\d+(?:\.\d+)?)/, "Firefox"],
  [/\b(?:HeadlessChrome|Chrome|CriOS)\/(\d+(?:\.\d+)?)/, "Chrome"],
  [/\bVersion\/(\d+(?:\.\d+)?).*\bSafari\//, "Safari"],
];

const SYSTEMS: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/\bWindows NT (\d+\.\d+)/, (m) => `Windows NT ${m[1]}`],
  [/\b(?:iPhone|CPU) OS (\d+)[._](\d+)/, (m) => `iOS ${m[1]}.${m[2]}`],
  [/\bMac OS X (\d+)[._](\d+)/, (m) => `macOS ${m[1]}.${m[2]}`],
  [/\bAndroid (\d+(?:\.\d+)?)/, (m) => `Android ${m[1]}`],
  [/\bCrOS\b/, () => "Chrome OS"],
  [/\bLinux\b/, () => "Linux"],
];

export function browserOfUserAgent(ua: string): string | null {
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) return `${name} ${m[1]}`;
  }
  return null;
}

export function osOfUserAgent(ua: string): string | null {
  for (const [re, name] of SYSTEMS) {
    const m = ua.match(re);
    if (m) return name(m);
  }
  return null;
}

/** The User-Agent header of an event's request (headers as an object or as pairs, any case). */
export function userAgentOf(request: unknown): string | null {
  const headers = typeof request === "object" && request !== null ? (request as { headers?: unknown }).headers : undefined;
  const pairs = Array.isArray(headers) ? headers : typeof headers === "object" && headers !== null ? Object.entries(headers) : [];
  for (const p of pairs) {
    if (Array.isArray(p) && typeof p[0] === "string" && p[0].toLowerCase() === "user-agent" && typeof p[1] === "string") return p[1].slice(0, 1_000);
  }
  return null;
}
