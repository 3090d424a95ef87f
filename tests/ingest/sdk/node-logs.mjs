// Structured logs from the official @sentry/node SDK, unmodified: `node node-logs.mjs <dsn> <marker>`. With
// enableLogs, inside a span, Sentry.logger.info/warn/error with attributes (one a parameterized template, one with a
// key the default data scrubbing filters); prints the trace id the logs carry. The log envelope items are the SDK's own.
import * as Sentry from "@sentry/node";

const [dsn, marker] = process.argv.slice(2);
if (!dsn || !marker) {
  console.error("usage: node node-logs.mjs <dsn> <marker>");
  process.exit(2);
}
Sentry.init({ dsn, release: "logs-node@1.0", environment: "sdk-test", enableLogs: true, tracesSampleRate: 1 });
const traceId = Sentry.startSpan({ name: "checkout" }, (span) => {
  Sentry.logger.info(`${marker} user signed in`, { "user.id": "42", plan: "pro" });
  Sentry.logger.warn(Sentry.logger.fmt`${marker} cart holds ${3} items`, { cart_size: 3 });
  Sentry.logger.error(`${marker} payment failed`, { order_id: 1234, retry: true, amount: 9.99, password: "hunter2" });
  return span.spanContext().traceId;
});
if (!(await Sentry.flush(5000))) {
  console.error("Sentry.flush(5000) timed out");
  process.exit(1);
}
console.log(traceId);
