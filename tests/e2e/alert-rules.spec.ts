// Issue alert rules against the production build: the API in Sentry's shape (the default rule of a new project,
// create, read, replace, delete; unknown ids and loopback or link-local webhooks refused with 400), and the editor
// used without JavaScript (plain forms and server actions): a rule made, refused with a link-local webhook, saved
// with a public one, tested (its history lists the test notification), and deleted.
import { expect, test } from "@playwright/test";
import { api, OWNER_STATE } from "./helpers";
import { createProject, expectJson, mainApi, type TestProject } from "./ingest-helpers";

type Rule = {
  id: string;
  name: string;
  actionMatch: string;
  filterMatch: string;
  frequency: number;
  conditions: { id: string }[];
  filters: unknown[];
  actions: Record<string, unknown>[];
  status: string;
  owner: null;
  createdBy: { email: string } | null;
  dateCreated: string;
};

const FIRST_SEEN = "sentry.rules.conditions.first_seen_event.FirstSeenEventCondition";
const WEBHOOK = "sentry.rules.actions.notify_event_service.NotifyEventServiceAction";
let project: TestProject;

test.describe("issue 17 rules", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "python" });
  });

  test("issue 17 rules: the API answers in Sentry's shape; bad rules are 400s naming what is wrong", async ({ request }) => {
    const base = `/projects/${project.org}/${project.slug}/rules/`;
    const [first] = await expectJson<Rule[]>(await api(request).get(base), 200, "list");
    expect(first).toMatchObject({
      name: "Send a notification for new issues",
      actionMatch: "all",
      frequency: 30,
      conditions: [{ id: FIRST_SEEN }],
      owner: null,
      status: "active",
    });
    expect(typeof first!.id).toBe("string");
    const body = {
      name: "Webhook",
      actionMatch: "any",
      conditions: [{ id: FIRST_SEEN }],
      actions: [{ id: WEBHOOK, service: "webhooks", url: "https://93.184.216.34/hook" }],
    };
    const made = await expectJson<Rule>(await api(request).post(base, body), 200, "create");
    expect(made).toMatchObject({
      name: "Webhook",
      actionMatch: "any",
      filterMatch: "all",
      frequency: 30,
      filters: [],
      actions: [{ id: WEBHOOK, url: "https://93.184.216.34/hook" }],
    });
    expect(made.createdBy?.email).toBeTruthy();
    expect(await expectJson<Rule>(await api(request).get(`${base}${made.id}/`), 200, "get")).toMatchObject({ id: made.id, name: "Webhook" });
    expect(await expectJson<Rule>(await api(request).put(`${base}${made.id}/`, { ...body, name: "Renamed", frequency: 60 }), 200, "put")).toMatchObject({
      name: "Renamed",
      frequency: 60,
    });
    const unknown = await api(request).post(base, { ...body, conditions: [{ id: "sentry.rules.conditions.nope.Nope" }] });
    expect(unknown.status()).toBe(400);
    expect((await unknown.json()).detail).toContain("sentry.rules.conditions.nope.Nope");
    for (const url of ["http://127.0.0.1:9720/hook", "http://169.254.169.254/latest/meta-data"]) {
      const refused = await api(request).post(base, { ...body, actions: [{ id: WEBHOOK, service: "webhooks", url }] });
      expect(refused.status(), url).toBe(400);
      expect((await refused.json()).detail).toContain("actions.0.url");
    }
    expect((await api(request).post(base, { ...body, name: "x\u0000y" })).status()).toBe(400);
    expect((await api(request).delete(`${base}${made.id}/`)).status()).toBe(202);
    expect((await api(request).get(`${base}${made.id}/`)).status()).toBe(404);
    expect((await api(request).get(`${base}99999999999999999999/`)).status()).toBe(404);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("issue 17 rules: the editor makes, refuses, saves, tests and deletes a rule with plain forms", async ({ page, request }) => {
      const alerts = `/en/orgs/${project.org}/projects/${project.slug}/alerts`;
      await page.goto(`${alerts}/new`);
      const form = page.getByTestId("alert-rule-form");
      await form.getByLabel("Name", { exact: true }).fill("Checkout storms");
      await form.getByLabel("Environment (empty: all)").fill("production");
      await form.getByTestId("rule-firstSeen").uncheck();
      await form.getByTestId("rule-eventsOn").check();
      await form.getByLabel("More than", { exact: true }).first().fill("50");
      await form.getByLabel("In", { exact: true }).first().selectOption("5m");
      await form.getByTestId("rule-eventsOnce").check();
      await form.getByLabel("The event's level is").selectOption("gte");
      await form.getByLabel("Webhook URL", { exact: true }).fill("http://169.254.169.254/latest");
      await form.getByRole("button", { name: "Create rule" }).click();
      await expect(page.getByRole("alert")).toContainText("non-public address");
      const again = page.getByTestId("alert-rule-form");
      await again.getByLabel("Name", { exact: true }).fill("Checkout storms");
      await again.getByLabel("Webhook URL", { exact: true }).fill("https://93.184.216.34/hook");
      await again.getByTestId("rule-firstSeen").uncheck();
      await again.getByTestId("rule-eventsOn").check();
      await again.getByLabel("More than", { exact: true }).first().fill("50");
      await again.getByLabel("In", { exact: true }).first().selectOption("5m");
      await again.getByTestId("rule-eventsOnce").check();
      await again.getByRole("button", { name: "Create rule" }).click();
      await expect(page).toHaveURL(new RegExp(`${alerts}/\\d+$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Checkout storms");
      const rules = await expectJson<Rule[]>(await api(request).get(`/projects/${project.org}/${project.slug}/rules/`), 200, "list");
      const saved = rules.find((r) => r.name === "Checkout storms")!;
      expect(saved.conditions).toEqual([
        { id: "sentry.rules.conditions.event_frequency.EventFrequencyCondition", value: 50, interval: "5m", comparisonType: "count", firstTimeOnly: true },
      ]);
      expect(saved.actions.some((a) => a.url === "https://93.184.216.34/hook")).toBe(true);
      await page.getByTestId("alert-rule-test-form").getByRole("button", { name: "Send test notification" }).click();
      await expect(page.getByTestId("rule-history")).toContainText("Test");
      await page.goto(alerts);
      await expect(page.getByTestId("alert-rules")).toContainText("Checkout storms");
      await page.goto(`${alerts}/${saved.id}`);
      await page.getByTestId("alert-rule-delete-form").getByRole("button", { name: "Delete rule" }).click();
      await expect(page).toHaveURL(new RegExp(`${alerts}$`));
      await expect(page.getByTestId("alert-rules")).not.toContainText("Checkout storms");
    });
  });
});
