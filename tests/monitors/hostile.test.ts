// Hostile check-ins (issue 19): bad slugs, NUL, huge numbers, megabyte strings, bad crontabs and time zones, through
// envelopes and the HTTP check-in endpoint. Every answer is a 2xx or 4xx; what the digest cannot use is dropped and
// counted as an invalid outcome with its reason (the Stats tab's note), never set aside, and the digest goes on: a
// valid check-in sent last is stored.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hourOf } from "../../src/core/hours";
import { type TestIntake, startTestIntake } from "../helpers/intake";

describe("hostile check-ins", () => {
  let t: TestIntake;
  let orgId: number;
  before(async () => {
    t = await startTestIntake();
    orgId = (await t.core.store.getOrganizationBySlug(t.org))!.id;
  });
  after(() => t.close());

  const crontab = (value: unknown, extra: Record<string, unknown> = {}) => ({ schedule: { type: "crontab", value }, ...extra });
  const envelope = (checkIn: unknown) => `{}\n{"type":"check_in"}\n${typeof checkIn === "string" ? checkIn : JSON.stringify(checkIn)}\n`;
  const send = async (checkIn: unknown) => {
    const p = t.projects[0];
    const r = await fetch(t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`), { method: "POST", body: envelope(checkIn) });
    assert.ok(r.status < 500, `answered ${r.status}`);
    return r.status;
  };
  const id = () => crypto.randomUUID().replace(/-/g, "");

  test("bad check-ins are dropped with their reason; bad configs create no monitor; the digest goes on", async () => {
    const bad: [unknown, string][] = [
      [{ check_in_id: id(), monitor_slug: "", status: "ok" }, "invalid_monitor_slug"],
      [{ check_in_id: id(), monitor_slug: "!!!", status: "ok" }, "invalid_monitor_slug"],
      [{ check_in_id: id(), monitor_slug: 12, status: "ok" }, "invalid_monitor_slug"],
      [{ check_in_id: id(), monitor_slug: "job", status: "missed" }, "invalid_check_in_status"],
      [{ check_in_id: id(), monitor_slug: "job", status: "ok", environment: "x".repeat(65) }, "invalid_environment"],
      [{ check_in_id: "not-a-uuid", monitor_slug: "job", status: "ok" }, "invalid_check_in_id"],
      [{ check_in_id: id(), monitor_slug: "bad-cron", status: "ok", monitor_config: crontab("61 * * * *") }, "invalid_monitor_config"],
      [{ check_in_id: id(), monitor_slug: "bad-cron-2", status: "ok", monitor_config: crontab("* * * * * * * *") }, "invalid_monitor_config"],
      [
        { check_in_id: id(), monitor_slug: "bad-tz", status: "ok", monitor_config: crontab("0 * * * *", { timezone: "Mars/Olympus" }) },
        "invalid_monitor_config",
      ],
      [
        { check_in_id: id(), monitor_slug: "bad-margin", status: "ok", monitor_config: crontab("0 * * * *", { checkin_margin: 1e308 }) },
        "invalid_monitor_config",
      ],
      [
        { check_in_id: id(), monitor_slug: "bad-threshold", status: "ok", monitor_config: crontab("0 * * * *", { failure_issue_threshold: -1 }) },
        "invalid_monitor_config",
      ],
      [
        { check_in_id: id(), monitor_slug: "bad-interval", status: "ok", monitor_config: { schedule: { type: "interval", value: 1e20, unit: "day" } } },
        "invalid_monitor_config",
      ],
      [
        { check_in_id: id(), monitor_slug: "bad-unit", status: "ok", monitor_config: { schedule: { type: "interval", value: 1, unit: "fortnight" } } },
        "invalid_monitor_config",
      ],
      // Ten thousand years ends past 9999: its deadlines were written "+012026-…", due on every scheduler pass.
      [
        { check_in_id: id(), monitor_slug: "ages", status: "ok", monitor_config: { schedule: { type: "interval", value: 10_000, unit: "year" } } },
        "invalid_monitor_config",
      ],
      [{ check_in_id: id(), monitor_slug: "long-cron", status: "ok", monitor_config: crontab("1,".repeat(5000) + "2 * * * *") }, "invalid_monitor_config"],
      [[1, 2, 3], "invalid_check_in"],
    ];
    for (const [checkIn] of bad) assert.equal(await send(checkIn), 200);
    // Not JSON, and a megabyte string (over the check-in item's size: the intake drops the item).
    assert.equal(await send("{not json"), 200);
    assert.ok((await send({ check_in_id: id(), monitor_slug: "big", status: "ok", environment: "e".repeat(1024 * 1024) })) < 500);
    // NUL is taken out of strings before anything reads them: "nul\u0000job" is the monitor "nuljob".
    assert.equal(await send({ check_in_id: id(), monitor_slug: "nul\u0000job", status: "ok", duration: 1e308, monitor_config: crontab("0 * * * *") }), 200);
    // A long slug is cut to Sentry's 50 characters.
    assert.equal(await send({ check_in_id: id(), monitor_slug: "s".repeat(100_000 - 200), status: "ok", monitor_config: crontab("0 * * * *") }), 200);
    assert.equal(await send({ check_in_id: id(), monitor_slug: "valid-after", status: "ok", monitor_config: crontab("*/5 * * * *") }), 200);
    await t.settle();

    const list = await t.core.store.listMonitors(orgId, null);
    assert.deepEqual(list.map((m) => m.slug).sort(), ["nuljob", "s".repeat(50), "valid-after"]);
    const nul = list.find((m) => m.slug === "nuljob")!;
    const [c] = await t.core.store.recentCheckIns(
      nul.environments.map((e) => e.id),
      5,
    );
    assert.ok(c!.durationMs! <= 40_320 * 60_000 * 2, "a huge duration is bounded");
    const totals = await t.core.store.outcomeTotals(t.projects[0].id, hourOf(Date.now() - 3_600_000));
    const invalid = totals.filter((o) => o.category === "monitor" && o.outcome === "invalid");
    for (const [, reason] of bad)
      assert.ok(
        invalid.some((o) => o.reason === reason),
        `counted as ${reason}`,
      );
    assert.equal((await t.core.store.listDeadLetters(10)).total, 0, "nothing set aside");
  });

  test("the HTTP check-in endpoint answers every bad request with a 4xx", async () => {
    const p = t.projects[0];
    const base = `${t.origin}/api/${p.id}/cron`;
    const key = p.key.publicKey;
    const cases: [string, RequestInit | undefined, number][] = [
      [`${base}/job/${key}/?status=bogus`, undefined, 400],
      [`${base}/job/${key}/`, undefined, 400],
      [`${base}/job/${key}/?status=ok&duration=1e999`, undefined, 400],
      [`${base}/job/not-a-key/?status=ok`, undefined, 401],
      [`${base}/job/?status=ok`, undefined, 401],
      [`${base}/job/${"f".repeat(32)}/?status=ok`, undefined, 403],
      [`${t.origin}/api/${p.id + 1000}/cron/job/${key}/?status=ok`, undefined, 403],
      [`${base}/job/${key}/`, { method: "POST", headers: { "content-type": "application/json" }, body: "{oops" }, 400],
      [`${base}/job/${key}/`, { method: "POST", headers: { "content-type": "application/json" }, body: "[1]" }, 400],
      [
        `${base}/job/${key}/`,
        { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ status: "ok", x: "y".repeat(1024 * 1024) }) },
        413,
      ],
      [
        `${base}/job/${key}/`,
        { method: "POST", headers: { "content-type": "application/json" }, body: `{"status":"ok","monitor_config":${"[".repeat(5000)}${"]".repeat(5000)}}` },
        400,
      ],
      [`${base}/job/${key}/`, { method: "PUT" }, 405],
      [`${base}/${"%E0%A4%A".repeat(3)}/${key}/?status=ok`, undefined, 202],
    ];
    for (const [url, init, status] of cases) {
      const r = await fetch(url, init);
      assert.equal(r.status, status, `${init?.method ?? "GET"} ${url.slice(0, 120)}: ${await r.text()}`);
    }
    assert.equal((await fetch(`${base}/${encodeURIComponent("Nightly Job \u0000!")}/${key}/?status=ok`)).status, 202);
    await t.settle();
    assert.equal((await t.core.store.listDeadLetters(10)).total, 0);
  });
});
