// Issue 17 metric alerts against a production build: the alert-rules API in Sentry's shape (with bad and hostile
// input refused with 400, webhooks to loopback and link-local addresses among it), the organization's Alerts page,
// the editor as a plain form without JavaScript, the rule's page with its chart once the minute's evaluation ran,
// and no serious axe violation on any of them.
import { expect, test } from "@playwright/test";
import { api, ownerApiToken, OWNER_STATE, screenshot } from "./helpers";
import { SERVERS } from "./servers";
import { seriousViolations } from "./axe";
import { createProject, expectJson, mainApi, type TestProject, unique } from "./ingest-helpers";

let project: TestProject;
test.beforeAll(async ({ request }) => {
  project = await createProject(mainApi(request), { platform: "node" });
});

const rule = (over: Record<string, unknown> = {}) => ({
  name: unique("Errors"),
  aggregate: "count()",
  timeWindow: 5,
  thresholdType: 0,
  projects: [project.slug],
  triggers: [{ label: "critical", alertThreshold: 100, actions: [] }],
  ...over,
});

test.describe("issue 17 metric alerts", () => {
  test("issue 17 metric alerts: the alert-rules API creates, lists, changes and deletes rules in Sentry's shape, and refuses bad input with 400", async ({
    request,
  }) => {
    const client = api(request);
    const base = `/organizations/${project.org}/alert-rules/`;
    const created = await expectJson(
      await client.post(
        base,
        rule({
          resolveThreshold: 10,
          triggers: [
            { label: "critical", alertThreshold: 100, actions: [] },
            { label: "warning", alertThreshold: 50, actions: [] },
          ],
        }),
      ),
      201,
      "create",
    );
    expect(created).toMatchObject({
      aggregate: "count()",
      dataset: "events",
      timeWindow: 5,
      thresholdType: 0,
      resolveThreshold: 10,
      projects: [project.slug],
      status: 0,
      state: "resolved",
    });
    expect(created.triggers.map((t: { label: string }) => t.label)).toEqual(["critical", "warning"]);
    const list = await expectJson<{ id: string }[]>(await client.get(base), 200, "list");
    expect(list.map((r) => r.id)).toContain(created.id);
    const changed = await expectJson(
      await client.put(`${base}${created.id}/`, {
        name: "Renamed",
        aggregate: "p95(transaction.duration)",
        triggers: [{ label: "critical", alertThreshold: 2000, actions: [] }],
      }),
      200,
      "update",
    );
    expect(changed).toMatchObject({ name: "Renamed", dataset: "transactions", resolveThreshold: 10 });
    for (const [body, field] of [
      [
        rule({
          triggers: [
            {
              label: "critical",
              alertThreshold: 1,
              actions: [{ id: "sentry.rules.actions.notify_event_service.NotifyEventServiceAction", url: "http://127.0.0.1:9000/hook" }],
            },
          ],
        }),
        "url",
      ],
      [
        rule({
          triggers: [
            {
              label: "critical",
              alertThreshold: 1,
              actions: [{ id: "sentry.integrations.slack.notify_action.SlackNotifyServiceAction", webhookUrl: "http://169.254.169.254/latest" }],
            },
          ],
        }),
        "webhookUrl",
      ],
      [rule({ aggregate: "sum(x)'; drop table events; --" }), "aggregate"],
      [rule({ timeWindow: -1 }), "timeWindow"],
      [rule({ triggers: "critical" }), "triggers"],
      [rule({ projects: ["a", "b"] }), "projects"],
      [rule({ query: "\u0000".repeat(500) }), "query"],
    ] as const) {
      const res = await client.post(base, body);
      expect(res.status(), JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(field);
    }
    const raw = await request.post(`${SERVERS.main.url}/api/0${base}`, {
      headers: { authorization: `Bearer ${ownerApiToken()}`, "content-type": "application/json" },
      data: "{not json",
    });
    expect(raw.status()).toBe(400);
    expect((await client.get(`${base}99999999999999999999/`)).status()).toBe(404);
    expect((await client.delete(`${base}${created.id}/`)).status()).toBe(204);
    expect((await client.get(`${base}${created.id}/`)).status()).toBe(404);
  });

  test.describe("screens", () => {
    test.use({ storageState: OWNER_STATE });

    test("issue 17 metric alerts: the Alerts page lists rules with their state; the editor works without JavaScript; the rule's page charts the metric against its thresholds", async ({
      browser,
      page,
    }) => {
      test.setTimeout(150_000);
      // The editor without JavaScript: a plain form posted to the server action, then the rule's page.
      const noJs = await browser.newContext({ storageState: OWNER_STATE, javaScriptEnabled: false });
      const plain = await noJs.newPage();
      await plain.goto(`/en/orgs/${project.org}/alerts/metric/new`);
      const name = unique("Checkout errors");
      const form = plain.getByTestId("metric-alert-form");
      await form.getByLabel("Name").fill(name);
      await form.getByLabel("Project").selectOption(project.slug);
      await form.getByTestId("trigger-critical").getByLabel("Threshold").fill("abc");
      await form.getByRole("button", { name: "Create" }).click();
      await expect(plain.getByTestId("metric-alert-form").locator("[data-field-error='critical']")).toBeVisible();
      await plain.getByTestId("metric-alert-form").getByLabel("Name").fill(name);
      await plain.getByTestId("metric-alert-form").getByLabel("Project").selectOption(project.slug);
      await plain.getByTestId("metric-alert-form").getByTestId("trigger-critical").getByLabel("Threshold").fill("100");
      await plain.getByTestId("metric-alert-form").getByTestId("trigger-warning").getByLabel("Threshold").fill("10");
      await plain.getByTestId("metric-alert-form").getByRole("button", { name: "Create" }).click();
      await expect(plain.getByRole("heading", { level: 1, name })).toBeVisible();
      await expect(plain.getByText("All projects")).toHaveCount(0);
      const ruleUrl = new URL(plain.url()).pathname;
      await noJs.close();

      await page.goto(`/en/orgs/${project.org}/alerts`);
      await expect(page.getByRole("link", { name: "Alerts" })).toHaveAttribute("aria-current", "page");
      const row = page.getByTestId("metric-alert-table").getByRole("row").filter({ hasText: name });
      await expect(row.getByTestId("metric-alert-state")).toHaveText("Resolved");
      await expect(page.getByTestId("issue-alert-links").locator(`a[href$="/projects/${project.slug}/alerts"]`)).toHaveCount(1);
      expect(await seriousViolations(page, "metric-alerts-list")).toEqual([]);

      await page.goto(`/en/orgs/${project.org}/alerts/metric/new`);
      expect(await seriousViolations(page, "metric-alert-editor")).toEqual([]);

      // The evaluation runs a few seconds into each minute; the chart appears once it has recorded a value.
      await expect(async () => {
        await page.goto(ruleUrl);
        await expect(page.getByTestId("metric-alert-chart")).toBeVisible({ timeout: 1000 });
      }).toPass({ timeout: 130_000, intervals: [5_000] });
      await expect(page.getByTestId("metric-alert-chart").locator(".chart-canvas")).toHaveAttribute("data-ready", "true");
      await screenshot(page, "metric-alert-detail");
      expect(await seriousViolations(page, "metric-alert-detail")).toEqual([]);
    });
  });
});
