// The X-Sentry-Rate-Limits header (develop's rate-limiting.mdx; Relay's utils/rate_limits.rs `format_rate_limits`):
// `retry_after:cat1;cat2:scope[:reason_code]`, several joined by ", "; SDKs read it on every response.
export type RateLimitScope = "organization" | "project" | "key";
export type ActiveRateLimit = { retryAfterSeconds: number; categories: readonly string[]; scope: RateLimitScope; reasonCode?: string };

export function formatRateLimits(limits: readonly ActiveRateLimit[]): string {
  return limits
    .map((l) => [Math.max(1, Math.ceil(l.retryAfterSeconds)), l.categories.join(";"), l.scope, ...(l.reasonCode ? [l.reasonCode] : [])].join(":"))
    .join(", ");
}
