// A cron job wrapped in the official @sentry/node SDK's withMonitor, unmodified: `node node-cron.mjs <dsn> ok|fail`.
// The monitor is upserted from its monitor_config; "fail" makes the job throw, which the SDK reports as an error
// check-in (and the script still exits 0: the failure is the job's, not the script's).
import * as Sentry from "@sentry/node";

const [dsn, mode] = process.argv.slice(2);
if (!dsn || !mode) {
  console.error("usage: node node-cron.mjs <dsn> ok|fail");
  process.exit(2);
}
Sentry.init({ dsn, environment: "sdk-test", tracesSampleRate: 0, defaultIntegrations: false });
const config = {
  schedule: { type: "crontab", value: "30 3 * * *" },
  timezone: "Europe/Vienna",
  checkinMargin: 5,
  maxRuntime: 20,
  failureIssueThreshold: 1,
  recoveryThreshold: 2,
};
try {
  await Sentry.withMonitor(
    "nightly-report",
    async () => {
      await new Promise((r) => setTimeout(r, 50));
      if (mode === "fail") throw new Error("the report could not be written");
    },
    config,
  );
} catch {
  // The job's own failure: withMonitor has sent the error check-in.
}
if (!(await Sentry.flush(5000))) {
  console.error("Sentry.flush(5000) timed out");
  process.exit(1);
}
