// Attachments from the official @sentry/node SDK, unmodified: `node node-attachments.mjs <dsn> <marker> <png file>`.
// Adds a log file and a screenshot to the scope (scope.addAttachment), captures an error with a view hierarchy as a
// hint attachment (attachmentType event.view_hierarchy), and prints the error's event id. The envelope's attachment
// items are the SDK's own.
import { readFileSync } from "node:fs";
import * as Sentry from "@sentry/node";

const [dsn, marker, png] = process.argv.slice(2);
if (!dsn || !marker || !png) {
  console.error("usage: node node-attachments.mjs <dsn> <marker> <png file>");
  process.exit(2);
}
Sentry.init({ dsn, release: "attachments-node@1.0", tracesSampleRate: 0 });
Sentry.getCurrentScope().addAttachment({ filename: "app.log", data: `${marker} started\npassword=hunter2\n`, contentType: "text/plain" });
Sentry.getCurrentScope().addAttachment({ filename: "screenshot.png", data: new Uint8Array(readFileSync(png)), contentType: "image/png" });
const hierarchy = {
  rendering_system: "android_view_system",
  windows: [{ type: "com.example.MainActivity", identifier: "root", children: [{ type: "android.widget.Button", identifier: "pay", children: [] }] }],
};
const eventId = Sentry.captureException(new Error(`${marker} checkout crashed`), {
  attachments: [{ filename: "view-hierarchy.json", data: JSON.stringify(hierarchy), contentType: "application/json", attachmentType: "event.view_hierarchy" }],
});
if (!(await Sentry.flush(5000))) {
  console.error("Sentry.flush(5000) timed out");
  process.exit(1);
}
console.log(eventId);
