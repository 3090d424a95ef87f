// The Faultline servers the browser tests run against; serve.mjs starts them with the same settings.
export { CRASH_PORT, LEGACY_UPLOADS_PORT, OIDC, SDK_PAGE_PORT, SERVERS, SMTP, smtpUrl } from "./servers.mjs";
export const OWNER = { email: "owner@example.com", password: "correct horse battery", name: "Olivia Owner", organization: "Acme" };
