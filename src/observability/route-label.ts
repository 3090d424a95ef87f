// A request path as a route with its parameters named ("/[locale]/orgs/[org]/issues/[issueId]"), for the page timing
// metric's label: one series per route, never per organization, issue or release (which would grow without bound).
const LOCALES = new Set(["en", "de"]);

/** Static path segments of the dashboard and the API; any other segment is a parameter. */
const STATIC = new Set([
  "orgs",
  "issues",
  "events",
  "projects",
  "releases",
  "traces",
  "alerts",
  "metric",
  "new",
  "edit",
  "settings",
  "performance",
  "web-vitals",
  "account",
  "instance",
  "mail",
  "personal-data",
  "users",
  "diagnostics",
  "route-error",
  "client-error",
  "server-error",
  "sign-in",
  "setup",
  "forgot-password",
  "reset-password",
  "invite",
  "docs",
  "api",
  "health",
  "internal",
  "monitoring",
  "organizations",
  "teams",
  "members",
  "keys",
  "stats",
  "tags",
  "values",
  "comments",
  "files",
  "assemble",
  "chunk-upload",
  "artifactbundle",
  "repos",
  "alert-rules",
  "latest",
  "oldest",
  "recommended",
  "stream",
]);

/** The parameter each static segment is followed by. */
const PARAM_AFTER: Record<string, string> = {
  orgs: "[org]",
  organizations: "[org]",
  projects: "[project]",
  issues: "[issueId]",
  events: "[eventId]",
  releases: "[version]",
  traces: "[traceId]",
  invite: "[secret]",
  teams: "[team]",
  "alert-rules": "[ruleId]",
  metric: "[ruleId]",
  comments: "[commentId]",
};

export function routeLabel(pathname: string, basePath: string): string {
  let path = pathname;
  if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length) || "/";
  if (path.startsWith("/_next/")) return "/_next";
  const segments = path.split("/").filter((s) => s !== "");
  const out: string[] = [];
  segments.forEach((segment, i) => {
    const before = i > 0 ? segments[i - 1]! : null;
    if (i === 0 && LOCALES.has(segment)) out.push("[locale]");
    else if (before === "api" && segment === "0") out.push("0");
    else if (STATIC.has(segment)) out.push(segment);
    else if (before !== null && PARAM_AFTER[before]) out.push(PARAM_AFTER[before]!);
    else out.push("[param]");
  });
  return `/${out.slice(0, 10).join("/")}`;
}
