// Sends an error caused by another error with the official @sentry/node SDK, unmodified, as an application would:
// a user, a tag, breadcrumbs and the HTTP request it happened in. `node node-chained-error.mjs <dsn> <message>
// <release> [count] [environment]` captures the same error `count` times (in "production" unless given) and prints
// their event ids as a JSON array.
import { EventEmitter } from "node:events";
import * as Sentry from "@sentry/node";

const [dsn, message, release, count = "1", environment = "production"] = process.argv.slice(2);
if (!dsn || !message || !release) {
  console.error("usage: node node-chained-error.mjs <dsn> <message> <release> [count] [environment]");
  process.exit(2);
}
// Without Dedupe, which drops an error identical to the one sent before it: the test wants every capture stored.
const integrations = (defaults) => defaults.filter((i) => i.name !== "Dedupe");
// Local variables come from a debugger the SDK attaches in a worker thread, some time after init. Until it is attached,
// errors carry no variables: warm-up errors (dropped in beforeSend, never sent) show when it is.
let warmedUp = false;
const beforeSend = (event) => {
  if (event.tags?.warmup !== "yes") return event;
  warmedUp ||= (event.exception?.values ?? []).some((e) => (e.stacktrace?.frames ?? []).some((f) => f.vars && Object.keys(f.vars).length > 0));
  return null;
};
Sentry.init({ dsn, release, environment, tracesSampleRate: 0, includeLocalVariables: true, integrations, beforeSend });
Sentry.setUser({ id: "user-42", email: "ada@example.com", username: "ada" });
Sentry.setTag("feature", "checkout");
Sentry.addBreadcrumb({ category: "ui.click", message: "clicked Pay", level: "info" });
Sentry.addBreadcrumb({ category: "cart", message: "loading the cart", level: "warning", data: { items: 3 } });
// The request the error happened in, as a web framework integration would attach it.
Sentry.getCurrentScope().addEventProcessor((event) => ({
  ...event,
  request: {
    method: "POST",
    url: "https://shop.example.com/checkout",
    query_string: "step=pay",
    headers: { "User-Agent": "e2e-browser/1.0", "Content-Type": "application/json" },
    data: { cart: "c-17" },
  },
}));

function loadCart(cartId) {
  const attempts = 3;
  throw new TypeError(`cart service unavailable for ${cartId} after ${attempts} attempts`);
}

function checkout(cartId) {
  try {
    loadCart(cartId);
  } catch (cause) {
    throw new Error(message, { cause });
  }
}

// Checkout runs from an event listener, so every stack also has a frame of Node.js itself (EventEmitter.emit in
// node:events), which is not the application's: the page's "only frames of the application" toggle has one to hide.
const orders = new EventEmitter();
let captured = null;
orders.on("checkout", (cartId) => {
  try {
    checkout(cartId);
  } catch (err) {
    captured = Sentry.captureException(err);
  }
});

for (let attempt = 0; !warmedUp; attempt++) {
  if (attempt === 100) {
    console.error("the SDK's local variables never appeared (100 warm-up errors)");
    process.exit(1);
  }
  Sentry.withScope((scope) => {
    scope.setTag("warmup", "yes");
    orders.emit("checkout", "warm-up");
  });
  await Sentry.flush(1000);
  await new Promise((r) => setTimeout(r, 50));
}

const ids = [];
for (let i = 0; i < Number(count); i++) {
  orders.emit("checkout", "c-17");
  ids.push(captured);
  // One at a time, so the events arrive in the order they were captured.
  if (!(await Sentry.flush(5000))) {
    console.error("Sentry.flush(5000) timed out");
    process.exit(1);
  }
}
process.stdout.write(`${JSON.stringify(ids)}\n`);
