// User feedback from the official @sentry/node SDK, unmodified: `node node-feedback.mjs <dsn> <marker>`. Captures an
// error, then Sentry.captureFeedback for it (associatedEventId) and one feedback about nothing in particular; prints
// the error's event id. The feedback envelope items are the SDK's own (an event of type feedback, contexts.feedback).
import * as Sentry from "@sentry/node";

const [dsn, marker] = process.argv.slice(2);
if (!dsn || !marker) {
  console.error("usage: node node-feedback.mjs <dsn> <marker>");
  process.exit(2);
}
Sentry.init({ dsn, release: "feedback-node@1.0", environment: "sdk-test", tracesSampleRate: 0 });
const eventId = Sentry.captureException(new Error(`${marker} checkout failed`));
Sentry.captureFeedback({
  message: `${marker} the pay button spins forever`,
  name: "Jane Node",
  email: "jane@example.com",
  url: "https://shop.example/checkout",
  associatedEventId: eventId,
});
Sentry.captureFeedback({ message: `${marker} love the new layout` });
if (!(await Sentry.flush(5000))) {
  console.error("Sentry.flush(5000) timed out");
  process.exit(1);
}
console.log(eventId);
