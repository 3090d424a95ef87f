// Browser and HTTP tests against production builds of Faultline, in Debian's Chromium.
// Two servers: the default build on :9101 and the /monitor base-path build on :9102 (FAULTLINE_E2E_PORT_BASE moves them), each on a fresh SQLite store,
// and a real SMTP server on :9110 that the main one mails through (tests/e2e/smtp-serve.ts).
// Screenshots for review: every spec writes them to test-results/screens/ with screenshot() from tests/e2e/helpers.ts.
import { defineConfig } from "@playwright/test";
import { OIDC, SERVERS, SMTP } from "./tests/e2e/servers";

/**
 * Specs run beside the main project, in a second worker: each works with users, organizations or projects of its own
 * (a11y adds projects, a release and an invitation to the shared organization, which no spec counts), signs in from
 * client addresses of its own lane (helpers.ts freshClientAddress), and spends most of its time waiting (axe-core's
 * analysis, a body that stops arriving, a metric alert's minute, sessions ending) while the other worker uses the CPU.
 */
const BESIDE = [/a11y\.spec\.ts/, /uploads-malformed\.spec\.ts/, /metric-alerts\.spec\.ts/, /sessions\.spec\.ts/, /two-factor\.spec\.ts/];

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  // Two lanes: the main project's specs one after another in one worker, the projects without order among them
  // (beside, base-path, sso) in the other.
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "off",
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "setup", testMatch: /setup\.spec\.ts/, use: { baseURL: SERVERS.main.url } },
    {
      name: "main",
      testIgnore: [/setup\.spec\.ts/, /base-path\.spec\.ts/, /\.last\.spec\.ts/, /sso\.spec\.ts/, ...BESIDE],
      dependencies: ["setup"],
      workers: 1,
      use: { baseURL: SERVERS.main.url },
    },
    { name: "beside", testMatch: BESIDE, dependencies: ["setup"], workers: 1, use: { baseURL: SERVERS.main.url } },
    // The last specs restart the main server and exhaust its sign-in limit: after everything else that uses it.
    { name: "last", testMatch: /\.last\.spec\.ts/, dependencies: ["main", "beside"], use: { baseURL: SERVERS.main.url } },
    { name: "base-path", testMatch: /base-path\.spec\.ts/, use: { baseURL: SERVERS.monitor.url } },
    { name: "sso", testMatch: /sso\.spec\.ts/, use: { baseURL: SERVERS.sso.url } },
  ],
  webServer: [
    ...Object.values(SERVERS).map((s) => ({
      command: `node tests/e2e/serve.mjs ${s.name}`,
      url: `${s.url}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe" as const,
      stderr: "pipe" as const,
    })),
    {
      command: "node --import tsx tests/e2e/oidc-serve.ts",
      url: `${OIDC.issuer}/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe" as const,
      stderr: "pipe" as const,
    },
    {
      command: "node --import tsx tests/e2e/smtp-serve.ts",
      port: SMTP.port,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "pipe" as const,
      stderr: "pipe" as const,
    },
  ],
});
