// Issue alert rules at the core: Sentry's shapes validated (unknown ids named, hostile input refused with 400), webhook
// URLs checked at save time (no loopback, private or link-local targets unless the instance allows the host), e-mail
// targets in the organization, members writing alerts when the organization lets them, the default rule of a new
// project, and a test notification per action.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  AGE_FILTER,
  ASSIGNED_FILTER,
  EVENT_FREQUENCY,
  FIRST_SEEN,
  ISSUE_CATEGORY_FILTER,
  LATEST_RELEASE_FILTER,
  LEVEL_FILTER,
  OCCURRENCES_FILTER,
  parseRule,
  TAGGED_FILTER,
} from "../../src/core/alert-rule-schema";
import { webhookUrlProblem } from "../../src/core/alert-rule-urls";
import { formToRule, ruleToForm } from "../../src/web/alert-rule-form";
import {
  alertRuleHistory,
  createAlertRule,
  deleteAlertRule,
  listAlertRules,
  sendTestNotification,
  setAlertsMemberWrite,
  updateAlertRule,
} from "../../src/core/alert-rules";
import { isAppError } from "../../src/core/errors";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { createTeam } from "../../src/core/teams";
import { EMAIL_ACTION, WEBHOOK_ACTION } from "../../src/storage/notification-ports";
import type { User } from "../../src/storage/ports";
import { joinByInvitation, outcome, type TestCore, testCore, uniq } from "../helpers/core";

const HOOK = { id: WEBHOOK_ACTION, service: "webhooks", url: "https://93.184.216.34/hook" };
const valid = { name: "Errors", actionMatch: "all", conditions: [{ id: FIRST_SEEN }], actions: [HOOK] };

function badRequest(run: () => unknown, pattern: RegExp): void {
  try {
    run();
  } catch (err) {
    assert.ok(isAppError(err) && err.code === "bad_request", String(err));
    assert.match(err.message, pattern);
    return;
  }
  assert.fail("expected a bad_request");
}

describe("issue 17 rules: validation", () => {
  test("Sentry's shapes are taken, with defaults (filterMatch all, frequency 30, active) and numbers given as strings", () => {
    const r = parseRule({
      ...valid,
      environment: "production",
      conditions: [{ id: EVENT_FREQUENCY, value: "100", interval: "1h", name: "label Sentry's UI sends back" }],
      filters: [
        { id: LEVEL_FILTER, match: "gte", level: "40" },
        { id: TAGGED_FILTER, key: "release", match: "eq", value: "app@1.0" },
        { id: TAGGED_FILTER, key: "browser", match: "is" },
        { id: LATEST_RELEASE_FILTER },
        { id: AGE_FILTER, comparison_type: "older", value: 2, time: "day" },
        { id: OCCURRENCES_FILTER, value: 10 },
        { id: ASSIGNED_FILTER, targetType: "Unassigned" },
      ],
      actions: [HOOK, { id: EMAIL_ACTION, targetType: "IssueOwners" }],
    });
    assert.deepEqual([r.filterMatch, r.frequency, r.status, r.environment], ["all", 30, "active", "production"]);
    assert.deepEqual(r.conditions, [{ id: EVENT_FREQUENCY, value: 100, interval: "1h", comparisonType: "count", firstTimeOnly: false }]);
    assert.deepEqual(r.filters[2], { id: TAGGED_FILTER, key: "browser", match: "is", value: "" });
    assert.deepEqual(r.actions[1], { id: EMAIL_ACTION, targetType: "IssueOwners", targetIdentifier: null, fallthroughType: "ActiveMembers" });
  });

  test("issue 19 IssueCategoryFilter: Sentry's GroupCategory numbers as strings or numbers; categories Faultline has no issues of, and others, are 400s", () => {
    const categories = (value: unknown) => parseRule({ ...valid, filters: [{ id: ISSUE_CATEGORY_FILTER, value }] }).filters;
    assert.deepEqual(categories("6"), [{ id: ISSUE_CATEGORY_FILTER, value: "6" }]);
    assert.deepEqual(categories(1), [{ id: ISSUE_CATEGORY_FILTER, value: "1" }]);
    assert.deepEqual(categories(" 4 "), [{ id: ISSUE_CATEGORY_FILTER, value: "4" }]);
    badRequest(() => categories("2"), /filters\.0 .*no performance issues \(category 2\); use 1 \(error\), 4 \(cron\), 6 \(feedback\)/);
    badRequest(() => categories(8), /no metric alert issues/);
    badRequest(() => categories("feedback"), /value must be the number of an issue category: 1 \(error\)/);
    badRequest(() => categories("6\u0000"), /value must be the number/);
    badRequest(() => categories(1.5), /value must be the number/);
    badRequest(() => categories(null), /value/);
    badRequest(() => categories("9".repeat(1_000_000)), /value must be the number/);
  });

  test("issue 19 the editor's category field: to Sentry's filter and back; left empty, no filter", () => {
    const form = { name: "Feedback", frequency: "30", firstSeen: "on", webhookUrl: HOOK.url, category: "6" };
    const rule = parseRule(formToRule(form));
    assert.deepEqual(rule.filters, [{ id: ISSUE_CATEGORY_FILTER, value: "6" }]);
    assert.equal(ruleToForm(rule).category, "6");
    assert.deepEqual(parseRule(formToRule({ ...form, category: "" })).filters, []);
  });

  test("unknown ids are refused naming the id", () => {
    badRequest(
      () => parseRule({ ...valid, conditions: [{ id: "sentry.rules.conditions.nope.Nope" }] }),
      /conditions\.0: unknown id "sentry\.rules\.conditions\.nope\.Nope"/,
    );
    badRequest(() => parseRule({ ...valid, filters: [{ id: FIRST_SEEN }] }), /filters\.0: unknown id/);
    badRequest(() => parseRule({ ...valid, actions: [{ id: "sentry.rules.actions.notify_event.NotifyEventAction" }] }), /actions\.0: unknown id/);
    badRequest(() => parseRule({ ...valid, conditions: [{}] }), /needs an id/);
  });

  test("hostile input #17: NUL bytes, 1 MB strings, huge numbers, deep nesting and wrong types are 400s", () => {
    badRequest(() => parseRule({ ...valid, name: "a\u0000b" }), /NUL/);
    badRequest(() => parseRule({ ...valid, name: "x".repeat(1_000_000) }), /at most 256/);
    badRequest(() => parseRule({ ...valid, filters: [{ id: TAGGED_FILTER, key: "k", match: "eq", value: "v".repeat(1_000_000) }] }), /filters\.0/);
    badRequest(() => parseRule({ ...valid, conditions: [{ id: EVENT_FREQUENCY, value: 1e300, interval: "1h" }] }), /at most 1000000000/);
    badRequest(() => parseRule({ ...valid, conditions: [{ id: EVENT_FREQUENCY, value: "99999999999999999999", interval: "1h" }] }), /value/);
    badRequest(() => parseRule({ ...valid, conditions: [{ id: EVENT_FREQUENCY, value: -1, interval: "1h" }] }), /0 or more/);
    badRequest(() => parseRule({ ...valid, conditions: [{ id: EVENT_FREQUENCY, value: 1, interval: "2h" }] }), /interval must be one of/);
    badRequest(() => parseRule({ ...valid, frequency: 1 }), /frequency must be from 5/);
    badRequest(() => parseRule({ ...valid, frequency: 43201 }), /frequency/);
    let deep: unknown = {};
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    badRequest(() => parseRule({ ...valid, name: deep }), /name must be text/);
    badRequest(() => parseRule({ ...valid, conditions: Array.from({ length: 21 }, () => ({ id: FIRST_SEEN })) }), /at most 20/);
    badRequest(() => parseRule({ ...valid, conditions: "x" }), /must be a list/);
    badRequest(() => parseRule({ ...valid, conditions: [] }), /at least one condition/);
    badRequest(() => parseRule({ ...valid, actions: [] }), /must add an action/);
    badRequest(() => parseRule({ ...valid, actionMatch: "none" }), /actionMatch/);
    badRequest(() => parseRule({ ...valid, conditions: [{ id: EVENT_FREQUENCY, value: 1, interval: "1h", comparisonType: "percent" }] }), /only "count"/);
    badRequest(() => parseRule({ ...valid, filters: [{ id: TAGGED_FILTER, key: "k", match: "eq" }] }), /value is required/);
    badRequest(() => parseRule({ ...valid, filters: [{ id: ASSIGNED_FILTER, targetType: "Member" }] }), /targetIdentifier is required/);
    badRequest(() => parseRule({ ...valid, filters: [{ id: LEVEL_FILTER, match: "gte", level: "error" }] }), /level must be one of/);
    badRequest(() => parseRule([]), /JSON object/);
  });

  test("webhook URLs: http(s) to public addresses only; an allowed host passes whatever it resolves to", async () => {
    for (const url of [
      "http://127.0.0.1/x",
      "http://169.254.169.254/latest/meta-data",
      "http://10.0.0.1/",
      "http://[::1]/",
      "http://192.168.1.1/",
      "http://localhost:9720/",
      "http://[::ffff:127.0.0.1]/",
    ]) {
      assert.match((await webhookUrlProblem(url)) ?? "", /non-public address/, url);
    }
    assert.match((await webhookUrlProblem("ftp://93.184.216.34/")) ?? "", /only http and https/);
    assert.match((await webhookUrlProblem("https://user:pw@93.184.216.34/")) ?? "", /credentials in the URL/);
    assert.match((await webhookUrlProblem("not a url")) ?? "", /not a valid URL/);
    assert.equal(await webhookUrlProblem("https://93.184.216.34/hook"), null);
    assert.equal(await webhookUrlProblem("http://127.0.0.1:9720/hook", { allowedHosts: ["127.0.0.1"] }), null);
    assert.match(
      (await webhookUrlProblem("https://hooks.invalid/x", {
        resolve: async () => {
          throw new Error("ENOTFOUND");
        },
      })) ?? "",
      /cannot be resolved/,
    );
  });
});

describe("issue 17 rules: the core service", () => {
  let t: TestCore;
  before(async () => {
    t = await testCore();
  });
  after(async () => t.close());

  async function world() {
    const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "Owner" });
    const org = await createOrganization(t.as(owner), { name: uniq("Org") });
    const project = await createProject(t.as(owner), org.slug, { name: uniq("Shop") });
    const person = async (role: "admin" | "member" | "viewer"): Promise<User> => {
      const u = await t.accounts.createUser({ email: `${uniq(role)}@example.com`, password: "password123", name: role });
      await joinByInvitation(t, t.as(owner), org.slug, { email: u.email, role });
      return u;
    };
    return { owner, org, project, person };
  }

  test("a new project has Sentry's default rule: a new issue e-mails the issue's owners, else the project's team, every 30 minutes", async () => {
    const { owner, org, project } = await world();
    const { rules } = await listAlertRules(t.as(owner), org.slug, project.slug);
    assert.equal(rules.length, 1);
    const [r] = rules;
    assert.deepEqual(
      [r!.name, r!.actionMatch, r!.frequency, r!.conditions, r!.actions, r!.createdBy],
      [
        "Send a notification for new issues",
        "all",
        30,
        [{ id: FIRST_SEEN }],
        [{ id: EMAIL_ACTION, targetType: "IssueOwners", targetIdentifier: null, fallthroughType: "ActiveMembers" }],
        owner.id,
      ],
    );
  });

  test("webhooks to loopback or link-local addresses are refused at save time, naming the field; allowed hosts pass", async () => {
    const { owner, org, project } = await world();
    const c = t.as(owner);
    for (const url of ["http://127.0.0.1:9720/hook", "http://169.254.169.254/latest"]) {
      await assert.rejects(
        createAlertRule(c, org.slug, project.slug, { ...valid, actions: [{ ...HOOK, url }] }),
        (e: unknown) => isAppError(e) && e.code === "bad_request" && /actions\.0\.url/.test(e.message),
      );
    }
    const ok = await createAlertRule(
      c,
      org.slug,
      project.slug,
      { ...valid, actions: [{ ...HOOK, url: "http://127.0.0.1:9720/hook" }] },
      { allowedHosts: ["127.0.0.1"] },
    );
    assert.equal(ok.actions.length, 1);
  });

  test("e-mail to a team or a member, and the assigned-to filter, must name one of the organization's", async () => {
    const { owner, org, project, person } = await world();
    const c = t.as(owner);
    const team = await createTeam(c, org.slug, { slug: uniq("team") });
    const member = await person("member");
    const stranger = await t.accounts.createUser({ email: `${uniq("s")}@example.com`, password: "password123", name: "S" });
    const email = (targetType: string, targetIdentifier: unknown) => ({ ...valid, actions: [{ id: EMAIL_ACTION, targetType, targetIdentifier }] });
    assert.equal(await outcome(() => createAlertRule(c, org.slug, project.slug, email("Team", team.id))), "ok");
    assert.equal(await outcome(() => createAlertRule(c, org.slug, project.slug, email("Member", member.id))), "ok");
    assert.equal(await outcome(() => createAlertRule(c, org.slug, project.slug, email("Member", stranger.id))), "bad_request");
    assert.equal(await outcome(() => createAlertRule(c, org.slug, project.slug, email("Team", 999_999))), "bad_request");
    // The "assigned to" filter too: another organization's user or team was kept (it never matched, and showed their id).
    const otherTeam = await createTeam(t.as(stranger), (await createOrganization(t.as(stranger), { name: uniq("Other") })).slug, { slug: uniq("team") });
    const assigned = (targetType: string, targetIdentifier: unknown) => ({
      ...valid,
      filters: [{ id: ASSIGNED_FILTER, targetType, targetIdentifier }],
    });
    assert.equal(await outcome(() => createAlertRule(c, org.slug, project.slug, assigned("Member", member.id))), "ok");
    assert.equal(await outcome(() => createAlertRule(c, org.slug, project.slug, assigned("Team", team.id))), "ok");
    assert.equal(await outcome(() => createAlertRule(c, org.slug, project.slug, assigned("Unassigned", null))), "ok");
    await assert.rejects(
      createAlertRule(c, org.slug, project.slug, assigned("Member", stranger.id)),
      (err) => isAppError(err) && err.message === "filters.0.targetIdentifier: no such member in this organization",
    );
    assert.equal(await outcome(() => createAlertRule(c, org.slug, project.slug, assigned("Team", otherTeam.id))), "bad_request");
  });

  test("members write alerts only when the organization lets them; viewers never; everyone reads", async () => {
    const { owner, org, project, person } = await world();
    const member = t.as(await person("member"));
    const viewer = t.as(await person("viewer"));
    assert.equal(await outcome(() => createAlertRule(member, org.slug, project.slug, valid)), "forbidden");
    assert.equal(await outcome(() => setAlertsMemberWrite(member, org.slug, { alertsMemberWrite: true })), "forbidden");
    await setAlertsMemberWrite(t.as(owner), org.slug, { alertsMemberWrite: true });
    const made = await createAlertRule(member, org.slug, project.slug, valid);
    assert.equal(await outcome(() => updateAlertRule(member, org.slug, project.slug, made.id, { ...valid, name: "Mine" })), "ok");
    assert.equal(await outcome(() => createAlertRule(viewer, org.slug, project.slug, valid)), "forbidden");
    assert.equal(await outcome(() => deleteAlertRule(viewer, org.slug, project.slug, made.id)), "forbidden");
    assert.equal((await listAlertRules(viewer, org.slug, project.slug)).canWrite, false);
    assert.equal((await listAlertRules(member, org.slug, project.slug)).canWrite, true);
    assert.equal(await outcome(() => deleteAlertRule(member, org.slug, project.slug, made.id)), "ok");
    assert.equal(await outcome(() => deleteAlertRule(member, org.slug, project.slug, made.id)), "not_found");
    assert.equal(await outcome(() => updateAlertRule(t.as(owner), org.slug, project.slug, "99999999999999999999", valid)), "not_found");
  });

  test("a test notification is one outbox row per action (source test), listed in the rule's history", async () => {
    const { owner, org, project } = await world();
    const c = t.as(owner);
    const r = await createAlertRule(c, org.slug, project.slug, { ...valid, actions: [HOOK, { id: EMAIL_ACTION, targetType: "IssueOwners" }] });
    assert.equal(await sendTestNotification(c, org.slug, project.slug, r.id, "https://faultline.example.com"), 2);
    const { history } = await alertRuleHistory(c, org.slug, project.slug, r.id);
    assert.deepEqual(
      history.map((n) => [n.source, n.status, n.payload.kind === "issue" && n.payload.trigger]),
      [
        ["test", "pending", "test"],
        ["test", "pending", "test"],
      ],
    );
  });
});
