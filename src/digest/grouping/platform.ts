// Platform helpers used by the grouping strategies: behavior families, URL origins and the
// JavaScript URL test (Sentry src/sentry/stacktraces/platform.py, grouping/strategies/utils.py
// `has_url_origin`, interfaces/stacktrace.py `Frame.is_url`).

export type BehaviorFamily = "native" | "javascript" | "other";

const NATIVE = new Set(["objc", "cocoa", "swift", "native", "c"]);
const JAVASCRIPT = new Set(["javascript", "node"]);

export function behaviorFamily(platform: string | null): BehaviorFamily {
  if (platform !== null && NATIVE.has(platform)) return "native";
  if (platform !== null && JAVASCRIPT.has(platform)) return "javascript";
  return "other";
}

export function hasUrlOrigin(path: string | null, allowFileOrigin = false): boolean {
  if (!path) return false;
  if (/^(http:|https:|applewebdata:|blob:)/.test(path)) return true;
  if (path.startsWith("file:")) return !allowFileOrigin;
  return false;
}

export function isUrl(absPath: string | null): boolean {
  if (!absPath) return false;
  return /^(file:|http:|https:|applewebdata:)/.test(absPath);
}
