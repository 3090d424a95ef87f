// Starts @sentry/node for node-pii.mjs before anything else is loaded (`node --import`), with sendDefaultPii.
import * as Sentry from "@sentry/node";

const [dsn, marker] = process.argv.slice(2);
if (!dsn || !marker) {
  console.error("usage: node --import ./node-pii-init.mjs node-pii.mjs <dsn> <marker>");
  process.exit(2);
}
Sentry.init({ dsn, release: "pii@1.0.0", environment: "sdk-test", sendDefaultPii: true, tracesSampleRate: 0 });
