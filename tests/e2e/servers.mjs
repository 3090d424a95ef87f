// Shared by playwright.config.ts (through servers.ts) and serve.mjs.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const server = (name, port, basePath, distDir) => ({
  name,
  port,
  basePath,
  distDir,
  dataDir: path.join(root, "test-results", `data-${name}`),
  // "localhost", as in the default FAULTLINE_URL: Next writes loopback hosts as "localhost" in redirects.
  origin: `http://localhost:${port}`,
  url: `http://localhost:${port}${basePath}`,
});

// FAULTLINE_E2E_PORT_BASE moves every port below (default 9100), so two checkouts can run their browser tests at once.
const base = Number(process.env.FAULTLINE_E2E_PORT_BASE ?? 9100);

/**
 * The SMTP server of the browser tests (tests/e2e/smtp-serve.ts, a real smtp-server): the main server sends its mail
 * there (the /monitor one has no mail, and shows e-mail actions as unavailable). Each message it receives is written
 * as JSON to `dir`, where specs read it (mail-helpers.ts).
 */
export const SMTP = {
  port: base + 10,
  user: "faultline",
  password: "e2e-smtp-password",
  from: "Faultline <faultline@example.com>",
  dir: path.join(root, "test-results", "mail"),
};
export const smtpUrl = `smtp://${SMTP.user}:${SMTP.password}@127.0.0.1:${SMTP.port}`;

export const SERVERS = {
  main: server("main", base + 1, "", ".next"),
  monitor: server("monitor", base + 2, "/monitor", ".next-monitor"),
  // Single sign-on's server: the default build with FAULTLINE_OIDC_* pointing at the tests' provider (oidc-serve.ts).
  sso: server("sso", base + 3, "", ".next"),
};

/**
 * The port of the Faultline that uploads.spec.ts starts itself (chunk uploads accepting release files only, as
 * servers before artifact bundles); every port of the browser tests is given here, so that none is taken twice.
 */
export const LEGACY_UPLOADS_PORT = base + 4;

/** The port of the Faultline that ingest-crash.last.spec.ts starts, kills with SIGKILL and starts again. */
export const CRASH_PORT = base + 5;

/** The port of the page ingest-sdks.spec.ts serves the browser SDK from: another origin than the server's. */
export const SDK_PAGE_PORT = base + 6;

/**
 * The browser tests' OpenID Connect provider (tests/e2e/oidc-serve.ts: panva's oidc-provider, a certified
 * implementation) on loopback, and the client the sso server is registered as.
 */
export const OIDC = {
  port: base + 11,
  issuer: `http://127.0.0.1:${base + 11}`,
  clientId: "faultline-e2e",
  clientSecret: "e2e-oidc-client-secret-0123456789",
  name: "Acme ID",
  // The main server's client, which a superuser sets in its instance settings (sso-settings.spec.ts).
  mainClientId: "faultline-e2e-main",
  mainClientSecret: "e2e-oidc-main-client-secret-abcdef",
};
