// Stopping the digest thread (`faultline start`'s and `faultline worker`'s shutdown, a rolling restart): the thread
// leaves its loop and exits by itself, instead of being ended when the supervisor's grace runs out. It once kept a
// listener on its port, which kept it alive: every shutdown waited out the whole grace, 5 seconds.
import assert from "node:assert/strict";
import { test } from "node:test";
import { startTestIntake } from "../helpers/intake";

test("a stopped digest thread exits by itself, without being ended at the end of the supervisor's grace", async () => {
  const lines: string[] = [];
  const t = await startTestIntake({ log: (line) => lines.push(line) });
  const id = crypto.randomUUID().replace(/-/g, "");
  const r = await fetch(t.url("envelope", t.projects[0], `?sentry_key=${t.projects[0].key.publicKey}&sentry_version=7`), {
    method: "POST",
    body: `{"event_id":"${id}"}\n{"type":"event"}\n{"message":"before the stop","platform":"node"}\n`,
  });
  assert.equal(r.status, 200, await r.text());
  await t.waitForEvent(t.projects[0], id);
  await t.close();
  assert.deepEqual(
    lines.filter((l) => /did not stop/.test(l)),
    [],
    "the thread left its loop and exited; nothing had to end it",
  );
});
