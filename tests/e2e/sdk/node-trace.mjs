// Sends one traced request with the official @sentry/node SDK, unmodified: a segment span `GET <route>` with a child
// span, and an exception captured inside it (so the error shares the trace). `node node-trace.mjs <dsn> <route>
// <stream|static>`: "stream" is the SDK's default (span v2 items), "static" sends a transaction event.
// Prints {"traceId", "eventId"} on stdout.
import * as Sentry from "@sentry/node";

const [dsn, route, lifecycle] = process.argv.slice(2);
if (!dsn || !route || (lifecycle !== "stream" && lifecycle !== "static")) {
  console.error("usage: node node-trace.mjs <dsn> <route> <stream|static>");
  process.exit(2);
}
Sentry.init({ dsn, release: "e2e@1.0.0", environment: "e2e", tracesSampleRate: 1, traceLifecycle: lifecycle });
let traceId = "";
let eventId = "";
await Sentry.startSpan({ name: `GET ${route}`, op: "http.server", forceTransaction: true }, async (span) => {
  traceId = span.spanContext().traceId;
  await Sentry.startSpan({ name: "SELECT * FROM orders", op: "db.sql.query" }, () => new Promise((resolve) => setTimeout(resolve, 30)));
  eventId = Sentry.captureException(new Error(`checkout failed on ${route}`));
  span.setStatus({ code: 2, message: "internal_error" });
});
if (!(await Sentry.flush(5000))) {
  console.error("Sentry.flush(5000) timed out");
  process.exit(1);
}
process.stdout.write(`${JSON.stringify({ traceId, eventId })}\n`);
