// Starts one Faultline test server (see servers.mjs) on a fresh, empty SQLite store: `node tests/e2e/serve.mjs main`.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { OIDC, SERVERS, SMTP, smtpUrl } from "./servers.mjs";

const s = SERVERS[process.argv[2]];
if (!s) throw new Error(`unknown server ${process.argv[2]}`);
rmSync(s.dataDir, { recursive: true, force: true });
const child = spawn(process.execPath, ["bin/faultline.mjs", "start"], {
  stdio: "inherit",
  env: {
    ...process.env,
    PORT: String(s.port),
    HOST: "127.0.0.1",
    FAULTLINE_URL: s.origin,
    FAULTLINE_DATA_DIR: s.dataDir,
    FAULTLINE_DIST_DIR: s.distDir,
    DATABASE_URL: "",
    // As behind a reverse proxy: each test signs in from an address of its own (X-Forwarded-For), so the
    // per-address sign-in rate limit only meets the test that is about it.
    FAULTLINE_TRUST_PROXY: "1",
    // Self-monitoring is on, as by default; every page load is sent, so self-monitoring.spec.ts sees each one.
    FAULTLINE_SELF_MONITORING_TRACES_SAMPLE_RATE: "1",
    // The main server mails through the tests' SMTP server (smtp-serve.ts); the /monitor one has no mail.
    FAULTLINE_SMTP_URL: s.name === "main" ? smtpUrl : "",
    FAULTLINE_MAIL_FROM: s.name === "main" ? SMTP.from : "",
    // Only the sso server signs in with the tests' OpenID Connect provider (oidc-serve.ts).
    ...(s.name === "sso"
      ? {
          FAULTLINE_OIDC_ISSUER: OIDC.issuer,
          FAULTLINE_OIDC_CLIENT_ID: OIDC.clientId,
          FAULTLINE_OIDC_CLIENT_SECRET: OIDC.clientSecret,
          FAULTLINE_OIDC_NAME: OIDC.name,
        }
      : {}),
  },
});
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
