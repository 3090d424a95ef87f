// User feedback end to end (issue 19), on SQLite and PostgreSQL: the official @sentry/node 11.5.0 (Sentry.captureFeedback)
// and Debian's python3-sentry-sdk 1.9.10 (a user_report item through its own transport) send feedback for an error they
// captured, through the real intake, spool and digest; the inbox's core service lists it with its link to the event
// and the issue, and the issue's feedback names it. The user-feedback API's core takes the project's DSN, and hostile
// input (NUL, a megabyte of text, wrong types) is trimmed with a note or refused with a 400 naming the field.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { getFeedbackView, listFeedbackInbox, listIssueFeedback } from "../../src/core/feedback";
import { submitUserFeedback } from "../../src/core/feedback-submit";
import { isAppError } from "../../src/core/errors";
import { FEEDBACK_LIMITS } from "../../src/config/limits";
import type { OpenDbOptions } from "../../src/storage/db";
import { type TestIntake, startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";

function runSdk(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { timeout: 30_000 }, (err, out, stderr) =>
      err ? reject(new Error(`${file} ${args[0]}: ${stderr || err.message}`)) : resolve(out.trim()),
    ),
  );
}

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`user feedback with real SDKs on ${dialect}`, { timeout: 300_000 }, () => {
    let t: TestIntake;
    let drop: (() => Promise<void>) | undefined;
    const marker = `fb${randomBytes(5).toString("hex")}`;
    before(async () => {
      let db: OpenDbOptions | undefined;
      if (dialect === "postgres") {
        const fresh = await freshPgDatabase(`feedback_${randomBytes(4).toString("hex")}`);
        drop = fresh.drop;
        db = { dialect: "postgres", url: fresh.url };
      }
      t = await startTestIntake({ db });
    });
    after(async () => {
      await t?.close();
      await drop?.();
    });
    const owner = async () => {
      const org = (await t.core.store.getOrganizationBySlug(t.org))!;
      const member = (await t.core.store.listMembers(org.id))[0]!;
      return t.core.as((await t.core.store.getUserById(member.userId))!);
    };
    const inbox = async () => (await listFeedbackInbox(await owner(), t.org, { status: "all" })).items;

    test("@sentry/node 11.5.0 captureFeedback: in the inbox with its event and issue, and on the issue's feedback", async () => {
      const p = t.projects[0];
      const eventId = await runSdk(process.execPath, ["tests/ingest/sdk/node-feedback.mjs", p.dsn, marker]);
      await t.settle();
      assert.match(eventId, /^[0-9a-f]{32}$/);
      const items = (await inbox()).filter((f) => f.message.startsWith(marker));
      const linked = items.find((f) => f.message === `${marker} the pay button spins forever`);
      assert.ok(linked, "the associated feedback is stored");
      assert.equal(linked.source, "feedback");
      assert.equal(linked.associatedEventId, eventId);
      assert.equal(linked.eventStored, true);
      assert.ok(linked.issue?.title.includes(`${marker} checkout failed`), "linked to the error's issue");
      assert.deepEqual([linked.name, linked.email, linked.url], ["Jane Node", "jane@example.com", "https://shop.example/checkout"]);
      assert.equal(linked.details.release, "feedback-node@1.0");
      assert.equal(linked.details.environment, "sdk-test");
      assert.ok(linked.details.os, "the OS from the SDK's contexts");
      const loose = items.find((f) => f.message === `${marker} love the new layout`);
      assert.ok(loose && loose.issue === null && loose.associatedEventId === null, "feedback about nothing in particular stays unlinked");
      // The feedback events are kept as events, but make no issue: the inbox is where they are read.
      const issues = (await t.core.store.listIssues(p.id, { page: { limit: 100 } })).items;
      assert.deepEqual(
        issues.filter((i) => i.type === "feedback").map((i) => i.title),
        [],
      );
      assert.ok(await t.core.store.getEvent(p.id, linked.feedbackEventId!), "the feedback event is stored");
      const onIssue = await listIssueFeedback(await owner(), linked.issue!.id);
      assert.deepEqual(
        onIssue.map((f) => f.id),
        [linked.id],
      );
      const view = await getFeedbackView(await owner(), t.org, linked.id);
      assert.equal(view.feedback.projectSlug, p.slug);
      assert.equal(view.may.update, true);
    });

    test("python3-sentry-sdk 1.9.10 user_report: in the inbox with its event and issue", async () => {
      const p = t.projects[1];
      const eventId = await runSdk("/usr/bin/python3", ["tests/ingest/sdk/python-feedback.py", p.dsn, marker]); // Debian's
      await t.settle();
      assert.match(eventId, /^[0-9a-f]{32}$/);
      const report = (await inbox()).find((f) => f.message === `${marker} the PDF is empty`);
      assert.ok(report, "the user report is stored");
      assert.equal(report.source, "user_report");
      assert.equal(report.associatedEventId, eventId);
      assert.deepEqual([report.name, report.email], ["Pat Python", "pat@example.com"]);
      assert.ok(report.issue?.title.includes(`${marker} report generation failed`), "linked to the error's issue");
      assert.equal(report.projectSlug, p.slug);
    });

    test("a hostile user_report item (NUL, a megabyte of comments, a number for a name) is stored trimmed with notes; one without an event id is counted invalid", async () => {
      const p = t.projects[0];
      const id = randomBytes(16).toString("hex");
      const url = t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`);
      const huge = `${marker}-huge\u0000` + "x".repeat(1_000_000);
      const item = JSON.stringify({ event_id: id, name: 42, email: "a@b.c", comments: huge });
      const r = await fetch(url, { method: "POST", body: `{}\n{"type":"user_report"}\n${item}\n` });
      assert.equal(r.status, 200);
      const bad = await fetch(url, { method: "POST", body: `{}\n{"type":"user_report"}\n{"comments":"${marker}-no-id"}\n` });
      assert.equal(bad.status, 200, "the intake answers as Relay does; the digest drops it");
      await t.settle();
      const rows = await inbox();
      const stored = rows.find((f) => f.associatedEventId === id);
      assert.ok(stored);
      assert.equal(stored.message.length, FEEDBACK_LIMITS.maxMessageLength);
      assert.ok(stored.message.startsWith(`${marker}-huge`) && !stored.message.includes("\u0000"));
      assert.equal(stored.name, "");
      assert.deepEqual(stored.details.notes, ["comments: cut to 16384 characters", "name: not a string, dropped"]);
      assert.equal(
        rows.some((f) => f.message.includes(`${marker}-no-id`)),
        false,
      );
      const totals = await t.core.store.outcomeTotals(p.id, "2000-01-01T00:00:00Z");
      assert.equal(
        totals.find((o) => o.outcome === "invalid" && o.category === "user_report_v2" && o.reason === "invalid_json")?.quantity,
        1,
        "counted invalid, as Relay drops it",
      );
      assert.ok((totals.find((o) => o.outcome === "accepted" && o.category === "user_report_v2")?.quantity ?? 0) >= 1);
    });

    test("the user-feedback API with the project's DSN: stored and linked; another project's DSN, bad fields and wrong types are 4xx", async () => {
      const [p, q] = t.projects;
      const eventId = await runSdk(process.execPath, ["tests/ingest/sdk/node-feedback.mjs", p.dsn, `${marker}api`]);
      await t.settle();
      const body = { event_id: eventId, name: "Ann API", email: "ann@example.com", comments: `${marker} via the API` };
      const saved = await submitUserFeedback(t.core.store, { dsn: p.dsn }, t.org, p.slug, body);
      assert.equal(saved.source, "api");
      assert.ok(saved.issue, "linked to the event's issue");
      const status = async (creds: { dsn: string }, b: Record<string, unknown>, project = p.slug) => {
        try {
          await submitUserFeedback(t.core.store, creds, t.org, project, b);
          return 200;
        } catch (err) {
          assert.ok(isAppError(err), String(err));
          return { unauthorized: 401, not_found: 404, bad_request: 400 }[err.code as string] ?? 0;
        }
      };
      assert.equal(await status({ dsn: q.dsn }, body), 404, "another project's DSN");
      assert.equal(await status({ dsn: "https://0123456789abcdef0123456789abcdef@example.com/1" }, body), 401);
      assert.equal(await status({ dsn: p.dsn }, { ...body, event_id: "nope" }), 400);
      assert.equal(await status({ dsn: p.dsn }, { ...body, comments: ["x"] }), 400);
      assert.equal(await status({ dsn: p.dsn }, { ...body, comments: "\u0000 " }), 400);
      assert.equal(await status({ dsn: p.dsn }, { ...body, email: "not-an-address" }), 400);
    });
  });
}
