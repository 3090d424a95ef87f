// Data scrubbing of attachments (issue 19; relay-pii attachments.rs): rules whose selectors name `$attachments` (by
// file name, `**` or `$binary`) apply to an attachment as text; the default and legacy settings, and rules of event
// fields, never do.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DEFAULT_SCRUBBING_OPTIONS as D, effectiveScrubbing, parsePiiConfig, type ScrubbingOptions } from "../../src/scrub/index";

const withRules = (applications: Record<string, string[]>, rules: Record<string, unknown> = {}): ScrubbingOptions => {
  const text = JSON.stringify({ rules, applications });
  assert.ok(parsePiiConfig(text).ok);
  return { ...D, relayPiiConfig: text };
};

describe("issue 19: scrubbing rules that name attachments", () => {
  test("the defaults (sensitive keys, IP addresses, card numbers) and rules of event fields leave attachments alone", () => {
    const s = effectiveScrubbing({ ...D, scrubIPAddresses: true }, withRules({ $string: ["@email:replace"], "$user.email": ["@anything:remove"] }));
    assert.equal(s.attachmentRulesApply("app.log"), false);
  });

  test("$attachments.'app.log' applies to that file only, with the rule's redaction", () => {
    const s = effectiveScrubbing(D, withRules({ "$attachments.'app.log'": ["@email:replace", "@password:filter"] }));
    assert.equal(s.attachmentRulesApply("app.log"), true);
    assert.equal(s.attachmentRulesApply("other.log"), false);
    const out = s.scrubAttachmentText("app.log", "login ann@example.com ok\n");
    assert.equal(out.changed, true);
    assert.equal(out.text, "login [email] ok\n");
  });

  test("$attachments.** and a custom pattern; @anything:remove removes the whole file", () => {
    const s = effectiveScrubbing(
      D,
      withRules({ "$attachments.**": ["token"] }, { token: { type: "pattern", pattern: "tok_[a-z0-9]+", redaction: { method: "mask" } } }),
    );
    assert.equal(s.attachmentRulesApply("any.txt"), true);
    assert.equal(s.scrubAttachmentText("any.txt", "key tok_abc123 end").text, "key ********** end");
    const gone = effectiveScrubbing(D, withRules({ "$attachments.'dump.bin'": ["@anything:remove"] }));
    assert.deepEqual(gone.scrubAttachmentText("dump.bin", "whatever"), { text: null, changed: true });
  });
});
