// Release health from the official @sentry/node SDK, unmodified: `node node-sessions.mjs <dsn> <release>`.
// Serves HTTP requests in request mode (the SDK aggregates them into `sessions` items): 3 that succeed and 2 whose
// handler captures an exception. Then it exits normally, which ends the process's own session.
import http from "node:http";
import * as Sentry from "@sentry/node";

const [dsn, release] = process.argv.slice(2);
if (!dsn || !release) {
  console.error("usage: node node-sessions.mjs <dsn> <release>");
  process.exit(2);
}
Sentry.init({ dsn, release, environment: "sdk-test", tracesSampleRate: 0 });
const app = http.createServer((req, res) => {
  if (req.url === "/fail") Sentry.captureException(new Error("request failed"));
  res.end("ok");
});
await new Promise((r) => app.listen(0, "127.0.0.1", r));
const { port } = app.address();
for (const path of ["/ok", "/ok", "/fail", "/ok", "/fail"]) await fetch(`http://127.0.0.1:${port}${path}`).then((r) => r.text());
await new Promise((r) => app.close(r));
if (!(await Sentry.flush(5000))) {
  console.error("Sentry.flush(5000) timed out");
  process.exit(1);
}
