// The Faultline servers the browser tests run against; serve.mjs starts them with the same settings.
export { LEGACY_UPLOADS_PORT, OIDC, SERVERS, SMTP, smtpUrl } from "./servers.mjs";
export const OWNER = { email: "owner@example.com", password: "correct horse battery", name: "Olivia Owner", organization: "Acme" };
