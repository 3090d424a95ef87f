// Conformance with Sentry Relay's own tests (relay-pii): each case in tests/scrub/corpus/*.json names the Relay test
// (and snapshot) it comes from. builtin.json: the built-in rules on one pii=true string (builtin.rs
// `assert_text_rule!`, `assert_custom_rulespec!`, `assert_rule_not_applied!`). convert.json: whole events through
// the legacy settings (convert.rs tests and their snapshots), inputs as Relay holds them after deserialization.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { DEFAULT_SCRUBBING_OPTIONS as D, effectiveScrubbing, parsePiiConfig, previewPiiConfig, type ScrubbingOptions } from "../../src/scrub/index";

type BuiltinCase = { source: string; rule: string; custom: boolean; input: string; output: string; remarks: unknown[] };
type Settings = { scrubData: boolean; scrubDefaults: boolean; scrubIpAddresses: boolean; sensitiveFields: string[]; excludeFields: string[] };
type ConvertCase = { source: string; settings: Settings; input: Record<string, unknown>; output: Record<string, unknown> };

const load = <T>(name: string): T[] => JSON.parse(readFileSync(new URL(`./corpus/${name}`, import.meta.url), "utf8")) as T[];
const OFF: ScrubbingOptions = { ...D, dataScrubber: false, dataScrubberDefaults: false };

/** Relay test sources whose expectation this port does not meet, each with the reason. */
const KNOWN_DIVERGENCES: Record<string, string> = {
  // The stored snapshot scrubs the message, so its Relay matched `redact_pair` keys against keys only; the
  // regexes.rs read for this port (`RedactPair` → `KeyValue`, as config.rs documents with this very test) also
  // replaces a value that contains the key, so the message becomes [Filtered].
  "relay-pii/src/convert.rs test_breadcrumb_message (relay-pii/src/snapshots/relay_pii__convert__tests__breadcrumb_message-2.snap)":
    "snapshot and regexes.rs versions disagree on redact_pair matching values",
  // The stored snapshot also filters the pair's key ("AuthToken"); the processor.rs read for this port stops at a
  // two-item array once its value was scrubbed as the key's value (`process_array`), so the key stays.
  "relay-pii/src/convert.rs test_bearer_tokens_scrubbed (relay-pii/src/snapshots/relay_pii__convert__tests__bearer_tokens_scrubbed.snap)":
    "snapshot predates process_array's early return after a scrubbed pair",
};

function builtinConfig(c: BuiltinCase): string {
  if (!c.custom) return JSON.stringify({ applications: { $string: [c.rule] } });
  const [type, method] = c.rule.slice(1).split(":") as [string, string];
  return JSON.stringify({ rules: { "0": { type, redaction: { method } } }, applications: { $string: ["0"] } });
}

describe("Relay conformance: built-in rules (relay-pii builtin.rs)", () => {
  for (const [i, c] of load<BuiltinCase>("builtin.json").entries()) {
    test(`${i} ${c.source}: ${c.rule} on ${JSON.stringify(c.input.slice(0, 40))}`, () => {
      const parsed = parsePiiConfig(builtinConfig(c));
      assert.ok(parsed.ok, parsed.ok ? "" : parsed.error);
      const out = previewPiiConfig({ extra: { value: c.input } }, parsed.config) as {
        extra: { value: string };
        _meta?: { extra: { value: { "": { rem: unknown[] } } } };
      };
      assert.equal(out.extra.value, c.output);
      assert.deepEqual(out._meta?.extra.value[""].rem ?? [], c.remarks);
    });
  }
});

describe("Relay conformance: legacy settings on events (relay-pii convert.rs)", () => {
  for (const c of load<ConvertCase>("convert.json")) {
    const run = KNOWN_DIVERGENCES[c.source] ? test.skip : test;
    run(c.source, () => {
      const s = c.settings;
      const project: ScrubbingOptions = {
        dataScrubber: s.scrubData,
        dataScrubberDefaults: s.scrubDefaults,
        sensitiveFields: s.sensitiveFields,
        safeFields: s.excludeFields,
        scrubIPAddresses: s.scrubIpAddresses,
        relayPiiConfig: null,
      };
      const event = structuredClone(c.input);
      effectiveScrubbing(OFF, project).scrubEvent(event);
      assert.deepEqual(event, c.output);
    });
  }
});

type ProcessorCase = {
  source: string;
  config?: unknown;
  settings?: Settings;
  input: Record<string, unknown>;
  output: Record<string, unknown>;
  compare?: string[];
};

describe("Relay conformance: rules and selectors on events (relay-pii processor.rs)", () => {
  for (const c of load<ProcessorCase>("processor.json")) {
    test(c.source, () => {
      let out: Record<string, unknown>;
      if (c.config !== undefined) {
        const parsed = parsePiiConfig(JSON.stringify(c.config));
        assert.ok(parsed.ok, parsed.ok ? "" : parsed.error);
        out = previewPiiConfig(c.input, parsed.config);
      } else {
        const s = c.settings!;
        out = structuredClone(c.input);
        effectiveScrubbing(OFF, {
          dataScrubber: s.scrubData,
          dataScrubberDefaults: s.scrubDefaults,
          sensitiveFields: s.sensitiveFields,
          safeFields: s.excludeFields,
          scrubIPAddresses: s.scrubIpAddresses,
          relayPiiConfig: null,
        }).scrubEvent(out);
      }
      if (c.compare) for (const key of c.compare) assert.deepEqual(out[key], c.output[key]);
      else assert.deepEqual(out, c.output);
    });
  }
});
