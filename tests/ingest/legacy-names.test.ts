// Events with legacy interface names (sentry.interfaces.*) through the real intake, over HTTP, on /store/ (as raven
// clients send them) and /envelope/ alike, into stored events and issues. The events are Sentry's own samples
// (tests/digest/fixtures/sentry-samples, from getsentry/sentry src/sentry/data/samples) with the platform their
// client sets.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import type { StoredEvent } from "../../src/storage/ports";
import { type TestIntake, startTestIntake } from "../helpers/intake";

const sample = (name: string, platform: string): Record<string, unknown> => ({
  ...(JSON.parse(readFileSync(new URL(`../digest/fixtures/sentry-samples/${name}.json`, import.meta.url), "utf8")) as Record<string, unknown>),
  platform,
});
const hex = () => crypto.randomUUID().replace(/-/g, "");

describe("legacy interface names through the intake", () => {
  let t: TestIntake;
  before(async () => {
    t = await startTestIntake();
  });
  after(() => t.close());

  async function store(payload: Record<string, unknown>): Promise<string> {
    const p = t.projects[0];
    const id = hex();
    const auth = `Sentry sentry_key=${p.key.publicKey}, sentry_version=7, sentry_client=raven-python/6.10.0`;
    const r = await fetch(t.url("store"), {
      method: "POST",
      body: JSON.stringify({ event_id: id, ...payload }),
      headers: { "x-sentry-auth": auth, "content-type": "application/json" },
    });
    assert.equal(r.status, 200, await r.text());
    return id;
  }
  async function envelope(payload: Record<string, unknown>): Promise<string> {
    const p = t.projects[0];
    const id = hex();
    const r = await fetch(t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`), {
      method: "POST",
      body: `{"event_id":"${id}"}\n{"type":"event"}\n${JSON.stringify(payload)}\n`,
    });
    assert.equal(r.status, 200, await r.text());
    return id;
  }

  test("hostile input #15: Sentry's samples over /store/ and /envelope/ are stored as their errors, each its own issue", async () => {
    const sent: [string, Promise<string>][] = [
      ["php by store", store(sample("php", "php"))],
      ["java by store", store(sample("java", "java"))],
      ["javascript by envelope", envelope(sample("javascript", "javascript"))],
      ["java by envelope", envelope(sample("java", "java"))],
      ["python by envelope", envelope(sample("python", "python"))],
    ];
    const events = new Map<string, StoredEvent>();
    for (const [what, id] of sent) events.set(what, await t.waitForEvent(t.projects[0], await id));
    const shown = (what: string) => {
      const e = events.get(what)!;
      return { type: e.type, title: e.title, culprit: e.culprit };
    };
    assert.deepEqual(shown("php by store"), {
      type: "error",
      title: "Exception: This is a test exception sent from the Raven CLI.",
      culprit: "raven in raven_cli_test",
    });
    assert.deepEqual(shown("java by store"), {
      type: "error",
      title: "ApiException: Authentication failed, token expired!",
      culprit: "io.sentry.example.ApiRequest in perform",
    });
    assert.deepEqual(shown("java by envelope"), shown("java by store"));
    assert.deepEqual(shown("javascript by envelope"), {
      type: "error",
      title: "TypeError: Object [object Object] has no method 'updateFrom'",
      culprit: "views.js in updateMember",
    });
    assert.equal(shown("python by envelope").type, "default");

    const java = JSON.parse(events.get("java by store")!.data) as {
      user?: { email?: string };
      request?: { url?: string };
      breadcrumbs?: { values: unknown[] };
    };
    assert.equal(java.user?.email, "user@sentry.io");
    assert.equal(java.request?.url, "http://localhost:8080/");
    assert.equal(java.breadcrumbs?.values.length, 4);

    // The same error by either endpoint is one issue; different errors are different issues.
    const issue = (what: string) => events.get(what)!.issueId;
    assert.equal(issue("java by store"), issue("java by envelope"));
    const distinct = new Set(["php by store", "java by store", "javascript by envelope", "python by envelope"].map(issue));
    assert.equal(distinct.size, 4);
  });
});
