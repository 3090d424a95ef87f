// Absolute links into the dashboard for what Faultline sends (mail, webhooks): the public URL and base path as the
// server runs with them. The server exports FAULTLINE_BASE_PATH at start (server/start.ts), and the digest's thread
// and the worker inherit the environment, so every process links alike without the configuration object.

/** FAULTLINE_URL (else http://localhost:PORT, as config/env.ts defaults it) plus the base path, without a trailing slash. */
export function linkBase(env: NodeJS.ProcessEnv = process.env): string {
  const url = (env.FAULTLINE_URL?.trim() || `http://localhost:${env.PORT?.trim() || "9000"}`).replace(/\/+$/, "");
  return url + (env.FAULTLINE_BASE_PATH ?? "").replace(/\/+$/, "");
}

export const issueLink = (base: string, locale: string, orgSlug: string, issueId: number): string =>
  `${base}/${locale}/orgs/${encodeURIComponent(orgSlug)}/issues/${issueId}`;

export const orgIssuesLink = (base: string, locale: string, orgSlug: string): string => `${base}/${locale}/orgs/${encodeURIComponent(orgSlug)}/issues`;
