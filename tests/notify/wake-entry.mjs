// A digest thread entry for the wake-up test: it says it committed notifications, then waits to be stopped, as the
// real thread (src/digest/thread.ts) does after a batch whose rules wrote to the outbox.
import { parentPort } from "node:worker_threads";

parentPort.postMessage({ type: "notifications", count: 2 });
parentPort.on("message", (m) => {
  if (m.type === "stop") process.exit(0);
});
