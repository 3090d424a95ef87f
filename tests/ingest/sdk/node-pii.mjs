// Personal data from the official @sentry/node SDK with sendDefaultPii, unmodified:
// `node --import ./node-pii-init.mjs node-pii.mjs <dsn> <marker>` (the SDK is started before the http module is
// loaded, as Sentry's docs for ECMAScript modules say, so that it sees the server's requests).
// An HTTP server whose handler captures an exception while serving a request that carries an Authorization header, a
// session cookie and a password in its JSON body; the scope holds an API key in `extra`, the user's e-mail and IP, and
// a breadcrumb whose message holds a card number.
// Every secret is `<marker>-<name>`, so a test can look for each in what Faultline stored; `<marker>-control` is
// not secret (it names the request's path) and must be stored.
import http from "node:http";
import * as Sentry from "@sentry/node";

const marker = process.argv[3];
// The body is awaited, so the handler goes on in the request's own async context, where the SDK keeps the request
// (an 'end' listener alone would run in the socket's context instead); the SDK reads the body as 'data' events come.
const app = http.createServer(async (req, res) => {
  const body = await new Promise((resolve) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => resolve(text));
  });
  if (req.url === "/health") return res.end("ok");
  Sentry.setExtra("api_key", `${marker}-apikey`);
  Sentry.setExtra("order", `${marker}-control`);
  Sentry.setUser({ id: "user-1", email: "ann@example.com", ip_address: "{{auto}}" });
  // A card number in a log message, as code that logs what it is doing does (built at run time, so that the source
  // lines the SDK sends with the frame do not hold it).
  const card = ["4111", "1111", "1111", "1111"].join(" ");
  Sentry.addBreadcrumb({ category: "payment", message: `charging card ${card}` });
  Sentry.captureException(new Error(`payment failed for order ${marker}-control (${JSON.parse(body).item})`));
  res.end("ok");
});
await new Promise((r) => app.listen(0, "127.0.0.1", r));
const { port } = app.address();
// The SDK instruments a server when it sees its first request (a diagnostics channel), so one request comes first.
await fetch(`http://127.0.0.1:${port}/health`, { method: "POST", body: "{}" }).then((r) => r.text());
await fetch(`http://127.0.0.1:${port}/checkout/${marker}-control?token=${marker}-querytoken`, {
  method: "POST",
  headers: { authorization: `Bearer ${marker}-bearer`, cookie: `sessionid=${marker}-cookie; theme=dark`, "content-type": "application/json" },
  body: JSON.stringify({ item: "book", password: `${marker}-bodypassword` }),
}).then((r) => r.text());
await new Promise((r) => app.close(r));
if (!(await Sentry.flush(5000))) {
  console.error("Sentry.flush(5000) timed out");
  process.exit(1);
}
