// runtime-spec §8, the server's side: an error Next logs with its digest is reported into the internal project even
// when it comes before self-monitoring's SDK has loaded (web/self-monitoring/server.ts loads it after the start, or at
// the first error), and it is still logged as before.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { registerInProcessIntake, type InProcessEnvelope } from "../../src/ingest/in-process";
import { closeServices, getServices } from "../../src/runtime/services";
import { migrateToLatest } from "../../src/storage/migrate";
import { startServerMonitoring } from "../../src/web/self-monitoring/server";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "faultline-self-monitoring-"));
Object.assign(process.env, { FAULTLINE_DATA_DIR: dataDir, FAULTLINE_URL: "http://faultline.test", DATABASE_URL: "", FAULTLINE_SELF_MONITORING: "1" });

after(async () => {
  registerInProcessIntake(null);
  await closeServices();
  rmSync(dataDir, { recursive: true, force: true });
});

test("an error logged with its digest at once after the start is reported with that digest, and still logged", async () => {
  await migrateToLatest(getServices().db);
  const received: InProcessEnvelope[] = [];
  registerInProcessIntake(async (input) => {
    received.push(input);
    return { ok: true, eventId: null };
  });
  const logged: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void logged.push(args);
  try {
    startServerMonitoring();
    // Before the SDK has loaded: its delay (SELF_MONITORING_LIMITS.serverSdkDelayMs) has not passed.
    console.error(Object.assign(new Error("Faultline test: an early server error"), { digest: "4242" }));
    const deadline = Date.now() + 20_000;
    while (!received.some((e) => Buffer.from(e.body).includes("an early server error")) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    console.error = original;
  }
  const envelope = received.find((e) => Buffer.from(e.body).includes("an early server error"));
  assert.ok(envelope, "the early error reached the intake");
  const event = JSON.parse(Buffer.from(envelope.body).toString("utf8").split("\n")[2]!) as { tags?: Record<string, string>; exception?: unknown };
  assert.equal(event.tags?.digest, "4242");
  assert.ok(event.exception, "sent as an exception");
  assert.equal(envelope.userAgent, "faultline-self-monitoring");
  assert.ok(
    logged.some((args) => args[0] instanceof Error && (args[0] as Error).message === "Faultline test: an early server error"),
    "the error is still logged",
  );
});
