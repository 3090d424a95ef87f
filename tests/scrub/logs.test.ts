// Data scrubbing of structured logs (issue 19), as Relay's eap::scrub: the default rules see an attribute's value under
// its key (a key like "password" is filtered, a credit card number in the body or a value is too); advanced rules
// (relayPiiConfig) reach `$log.body` and `$log.attributes.KEY.value`; with scrubbing off nothing changes; every change
// leaves its remark in `_meta`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_SCRUBBING_OPTIONS as D, effectiveScrubbing, type ScrubbingOptions } from "../../src/scrub/index";

const OFF: ScrubbingOptions = { ...D, dataScrubber: false, dataScrubberDefaults: false };
const line = () =>
  ({
    body: "charged card 4242-4242-4242-4242 for order 7",
    attributes: {
      password: { type: "string", value: "hunter2" },
      "user.email": { type: "string", value: "ann@example.com" },
      order: { type: "integer", value: 7 },
      note: { type: "string", value: "card 4111 1111 1111 1111" },
    },
    level: "info",
    trace_id: "5b8efff798038103d269b633813fc60c",
  }) as Record<string, unknown> & { body: string; attributes: Record<string, { type: string; value: unknown }> };

test("issue 19 logs: the default rules filter a sensitive key's value and card numbers in the body and values", () => {
  const log = line();
  effectiveScrubbing(D, D).scrubLog(log);
  assert.deepEqual(log.attributes.password, { type: "string", value: "[Filtered]" });
  assert.doesNotMatch(log.body, /4242-4242/);
  assert.doesNotMatch(String(log.attributes.note?.value), /4111/);
  assert.deepEqual(log.attributes.order, { type: "integer", value: 7 }, "numbers are left alone");
  assert.equal(log.attributes["user.email"]?.value, "ann@example.com", "an e-mail address is not a default rule");
  assert.ok(log._meta, "remarks in _meta");
});

test("issue 19 logs: advanced rules reach $log.body and $log.attributes.KEY.value; scrubbing off changes nothing", () => {
  const rules = JSON.stringify({
    rules: {
      mail: { type: "email", redaction: { method: "replace", text: "[email]" } },
      order: { type: "pattern", pattern: "order \\d+", redaction: { method: "mask" } },
    },
    applications: { "$log.attributes.'user.email'.value": ["mail"], "$log.body": ["order"] },
  });
  const log = line();
  effectiveScrubbing(OFF, { ...OFF, relayPiiConfig: rules }).scrubLog(log);
  assert.equal(log.attributes["user.email"]?.value, "[email]");
  assert.match(log.body, /\*{7}$/);
  assert.equal(log.attributes.password?.value, "hunter2", "legacy rules are off");
  const untouched = line();
  effectiveScrubbing(OFF, OFF).scrubLog(untouched);
  assert.deepEqual(untouched, line());
});
