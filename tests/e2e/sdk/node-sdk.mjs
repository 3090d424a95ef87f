// Sends one exception with the official @sentry/node SDK, unmodified: `node node-sdk.mjs <dsn> <message>`.
// Prints {"eventId", "statusCode"} (the HTTP status the SDK's own transport got for the event) on stdout.
import * as Sentry from "@sentry/node";

const [dsn, message] = process.argv.slice(2);
if (!dsn || !message) {
  console.error("usage: node node-sdk.mjs <dsn> <message>");
  process.exit(2);
}
Sentry.init({ dsn, release: "e2e@1.0.0", environment: "e2e", tracesSampleRate: 0 });
let statusCode = null;
Sentry.getClient()?.on("afterSendEvent", (_event, response) => {
  statusCode = response?.statusCode ?? null;
});
const eventId = Sentry.captureException(new Error(message));
if (!(await Sentry.flush(5000))) {
  console.error("Sentry.flush(5000) timed out");
  process.exit(1);
}
process.stdout.write(`${JSON.stringify({ eventId, statusCode })}\n`);
