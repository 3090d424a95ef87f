// What issues take from normalized events: Sentry's culprit per platform, issue metadata, the user an event counts
// for, and the tags counted per issue.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DIGEST_LIMITS } from "../../src/config/limits";
import { issueMetadata, issueTags, stacktraceCulprit, userKey } from "../../src/digest/event-facts";

const withFrames = (platform: string, frames: Record<string, unknown>[]) => ({
  platform,
  exception: { values: [{ type: "E", value: "v", stacktrace: { frames } }] },
});

describe("event facts", () => {
  test("culprit: the newest in-app frame, written as Sentry writes it for each platform", () => {
    const frames = [
      { module: "app.views", filename: "views.py", function: "index", in_app: true },
      { module: "django.core", function: "handle", in_app: false },
    ];
    assert.equal(stacktraceCulprit(withFrames("python", frames)), "app.views in index");
    assert.equal(stacktraceCulprit(withFrames("javascript", [{ filename: "/app.js", function: "go", in_app: true }])), "go(/app.js)");
    assert.equal(stacktraceCulprit(withFrames("node", [{ filename: "/srv/x.js", in_app: true }])), "?(/srv/x.js)");
    assert.equal(stacktraceCulprit(withFrames("cocoa", [{ function: "-[A b]", in_app: true }])), "-[A b]");
    assert.equal(
      stacktraceCulprit(withFrames("python", [{ filename: "lib.py", function: "f", in_app: false }])),
      "lib.py in f",
      "no in-app frame: the newest frame",
    );
    assert.equal(stacktraceCulprit({ message: "no stack" }), "");
  });
  test("metadata: type, value and the blamed frame for errors; the title for messages; directive and URI for CSP", () => {
    assert.deepEqual(issueMetadata("error", "E: v", withFrames("python", [{ filename: "a.py", function: "f", in_app: true }])), {
      type: "E",
      value: "v",
      filename: "a.py",
      function: "f",
      in_app_frame_mix: "in-app-only",
    });
    assert.deepEqual(issueMetadata("default", "hello", {}), { title: "hello" });
    assert.deepEqual(issueMetadata("csp", "Blocked", { csp: { effective_directive: "script-src", blocked_uri: "https://x" } }), {
      directive: "script-src",
      uri: "https://x",
      message: "Blocked",
    });
  });
  test("the user an event counts for: id, then e-mail, username, IP; never the {{auto}} placeholder", () => {
    assert.equal(userKey({ user: { id: 7, email: "a@b.c" } }), "id:7");
    assert.equal(userKey({ user: { email: "a@b.c", ip_address: "1.2.3.4" } }), "email:a@b.c");
    assert.equal(userKey({ user: { username: "ann" } }), "username:ann");
    assert.equal(userKey({ user: { ip_address: "{{auto}}" } }), null);
    assert.equal(userKey({ user: { ip_address: "1.2.3.4" } }), "ip:1.2.3.4");
    assert.equal(userKey({}), null);
  });
  test("tags: the event's own first, then the derived ones, each key once, values capped at 200 characters", () => {
    const tags = issueTags(
      {
        tags: [
          ["level", "custom"],
          ["feature", "x".repeat(300)],
        ],
        level: "error",
        release: "1.0",
        environment: "prod",
        request: { url: "https://shop/x" },
        contexts: { browser: { name: "Firefox", version: "120" }, os: { name: "Linux" } },
        exception: { values: [{ type: "E", mechanism: { type: "onerror", handled: false } }] },
      },
      "id:1",
    );
    const map = new Map(tags);
    assert.equal(map.get("level"), "custom", "an event's own tag wins over the derived one");
    assert.equal(map.get("feature")?.length, 200);
    assert.equal(map.get("release"), "1.0");
    assert.equal(map.get("url"), "https://shop/x");
    assert.equal(map.get("user"), "id:1");
    assert.equal(map.get("browser"), "Firefox 120");
    assert.equal(map.get("browser.name"), "Firefox");
    assert.equal(map.get("os"), "Linux");
    assert.equal(map.get("handled"), "no");
    assert.equal(map.get("mechanism"), "onerror");
    assert.equal(tags.length, map.size, "no key twice");
  });
  test("tags: an event's first DIGEST_LIMITS.tagsPerEvent own tags are counted, then the derived ones", () => {
    const own = Array.from({ length: 40_000 }, (_, i) => [`t${i}`, `v${i}`]);
    const tags = issueTags({ tags: own, level: "error", release: "1.0" }, "id:1");
    const keys = tags.map(([k]) => k);
    assert.deepEqual(keys.slice(0, 2), ["t0", "t1"]);
    assert.equal(keys.filter((k) => k.startsWith("t")).length, DIGEST_LIMITS.tagsPerEvent);
    assert.deepEqual(keys.slice(DIGEST_LIMITS.tagsPerEvent), ["level", "release", "user"]);
  });
});
