// The feedback a feedback event carries (issue 19): its fields cut to FEEDBACK_LIMITS with notes, wrong types dropped
// with notes, and the browser and OS read from the User-Agent header when the event has no browser context (browser
// SDKs send only the header). The User-Agent strings are those the browsers send.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FEEDBACK_LIMITS } from "../../src/config/limits";
import { feedbackOfEvent, feedbackOfUserReport } from "../../src/digest/feedback";
import { browserOfUserAgent, osOfUserAgent } from "../../src/digest/user-agent";

const AGENTS: [string, string | null, string | null][] = [
  ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome 131.0", "Linux"],
  ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox 128.0", "Windows NT 10.0"],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    "Safari 17.5",
    "iOS 17.5",
  ],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87",
    "Edge 126.0",
    "macOS 10.15",
  ],
  ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.6422.165 Mobile Safari/537.36", "Chrome 125.0", "Android 14"],
  ["curl/8.5.0", null, null],
];

test("issue 19 feedback: browser and OS from the User-Agent header", () => {
  for (const [ua, browser, os] of AGENTS) {
    assert.equal(browserOfUserAgent(ua), browser, ua);
    assert.equal(osOfUserAgent(ua), os, ua);
  }
});

test("issue 19 feedback: a feedback event's context read, its browser context before the header, its request's header as pairs", () => {
  const event = {
    contexts: {
      feedback: {
        message: "Slow",
        contact_email: "a@example.com",
        name: "A",
        url: "https://x.example/p",
        associated_event_id: "3C5A7C0E-1F7D-4F0B-9A7E-0C1B2D3E4F50",
      },
    },
    request: { url: "https://x.example/p", headers: [["User-Agent", AGENTS[1]![0]]] },
  };
  const f = feedbackOfEvent(event, 1, "a".repeat(32), "2026-01-01T00:00:00.000Z")!;
  assert.equal(f.associatedEventId, "3c5a7c0e1f7d4f0b9a7e0c1b2d3e4f50", "a UUID with dashes becomes an event id");
  assert.deepEqual(
    [f.message, f.email, f.name, f.url, f.details.browser, f.details.os],
    ["Slow", "a@example.com", "A", "https://x.example/p", "Firefox 128.0", "Windows NT 10.0"],
  );
  const withContext = feedbackOfEvent(
    { ...event, contexts: { ...event.contexts, browser: { name: "Chrome", version: "120" } } },
    1,
    "a".repeat(32),
    "2026-01-01T00:00:00.000Z",
  )!;
  assert.equal(withContext.details.browser, "Chrome 120");
  assert.equal(feedbackOfEvent({ message: "no context" }, 1, "a".repeat(32), "2026-01-01T00:00:00.000Z"), null);
});

test("issue 19 feedback: hostile values are cut or dropped, each with a note; a report without an event id is invalid", () => {
  const huge = "x".repeat(1_000_000);
  const f = feedbackOfEvent(
    { contexts: { feedback: { message: `a\u0000${huge}`, name: { x: 1 }, contact_email: 5, url: huge } } },
    1,
    "b".repeat(32),
    "2026-01-01T00:00:00.000Z",
  )!;
  assert.equal(f.message.length, FEEDBACK_LIMITS.maxMessageLength);
  assert.ok(!f.message.includes("\u0000"));
  assert.equal(f.url.length, FEEDBACK_LIMITS.maxUrlLength);
  assert.deepEqual([f.name, f.email], ["", ""]);
  assert.deepEqual(f.details.notes, [
    "message: cut to 16384 characters",
    "name: not a string, dropped",
    "contact_email: not a string, dropped",
    "url: cut to 2048 characters",
  ]);
  assert.throws(() => feedbackOfUserReport({ comments: "x" }, 1, "2026-01-01T00:00:00.000Z", "user_report"), /event_id/);
  assert.throws(() => feedbackOfUserReport([], 1, "2026-01-01T00:00:00.000Z", "user_report"), /event_id/);
  assert.throws(() => feedbackOfUserReport({ event_id: 42 }, 1, "2026-01-01T00:00:00.000Z", "user_report"), /event_id/);
});
