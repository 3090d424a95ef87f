// Scrubbing that fails (it never should: properties.test.ts) fails closed: the item keeps only fields that hold no
// personal data, so nothing the rules had not reached yet is stored, and the event says why.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_SCRUBBING_OPTIONS, effectiveScrubbing } from "../../src/scrub";

test("an event whose walk throws keeps its ids, times, level, release and code locations, nothing else", () => {
  const scrubber = effectiveScrubbing({ ...DEFAULT_SCRUBBING_OPTIONS, dataScrubber: false, dataScrubberDefaults: false }, DEFAULT_SCRUBBING_OPTIONS);
  const event: Record<string, unknown> = {
    event_id: "a".repeat(32),
    level: "error",
    release: "web@1",
    timestamp: 1,
    exception: {
      values: [
        {
          type: "ValueError",
          value: "card 4111 1111 1111 1111",
          stacktrace: { frames: [{ function: "charge", filename: "pay.py", lineno: 3, vars: { password: "hunter2" } }] },
        },
      ],
    },
    user: { email: "ann@example.com" },
    errors: [{ type: "invalid_data", name: "user.ip_address", value: "not-an-ip ann@example.com" }],
  };
  // A value the walk cannot read: JSON never has getters, so this is the one way to make the processor throw here.
  Object.defineProperty(event, "extra", {
    enumerable: true,
    configurable: true,
    get: () => {
      throw new Error("unreadable");
    },
  });
  scrubber.scrubEvent(event);
  const text = JSON.stringify(event);
  for (const secret of ["4111", "hunter2", "ann@example.com"]) assert.ok(!text.includes(secret), `${secret} is gone`);
  assert.deepEqual(event.exception, { values: [{ type: "ValueError", stacktrace: { frames: [{ function: "charge", filename: "pay.py", lineno: 3 }] } }] });
  assert.equal(event.release, "web@1");
  assert.deepEqual(
    (event.errors as { type: string; name: string }[]).map((e) => e.type),
    ["invalid_data", "invalid_data"],
  );
});
