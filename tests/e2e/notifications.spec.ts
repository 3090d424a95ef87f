// Personal notifications (issue 17, "People") in the browser, without JavaScript: subscribing to an issue and
// unsubscribing, with who will be notified; the account page's notification settings, kept and shown again; and
// both screens free of serious axe-core violations.
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./axe";
import { OWNER_STATE } from "./helpers";
import { createProject, expectJson, mainApi, type TestProject } from "./ingest-helpers";
import { OWNER, SERVERS } from "./servers";

let project: TestProject;
let issueId: string;

test.describe("issue 17 people: notifications", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "python", org: "acme" });
    const id = crypto.randomUUID().replace(/-/g, "");
    const url = `${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`;
    const r = await fetch(url, {
      method: "POST",
      body: `{"event_id":"${id}"}\n{"type":"event"}\n${JSON.stringify({ event_id: id, platform: "python", level: "error", message: "people notice test" })}\n`,
    });
    expect(r.status).toBe(200);
    await expect
      .poll(
        async () => (await expectJson<{ id: string }[]>(await mainApi(request).get(`/projects/${project.org}/${project.slug}/issues/`), 200, "issues")).length,
        { timeout: 30_000 },
      )
      .toBe(1);
    issueId = (await expectJson<{ id: string }[]>(await mainApi(request).get(`/projects/${project.org}/${project.slug}/issues/`), 200, "issues"))[0]!.id;
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("issue 17 people: subscribe and unsubscribe on the issue page; who will be notified follows", async ({ page }) => {
      await page.goto(`${SERVERS.main.url}/en/orgs/${project.org}/issues/${issueId}`);
      const box = page.getByTestId("issue-notify");
      await expect(box.getByTestId("subscription-status")).toHaveText("You are not subscribed to this issue.");
      await expect(box.getByTestId("notify-workflow")).toHaveText("Nobody");
      await box.getByRole("button", { name: "Subscribe" }).click();
      await expect(page.getByTestId("subscription-status")).toHaveText("You are subscribed: you hear of comments and regressions of this issue.");
      await expect(page.getByTestId("notify-workflow")).toContainText(OWNER.email);
      await page.getByTestId("issue-notify").getByRole("button", { name: "Unsubscribe" }).click();
      await expect(page.getByTestId("subscription-status")).toHaveText("You unsubscribed from this issue.");
      await expect(page.getByTestId("notify-workflow")).toHaveText("Nobody");
    });

    test("issue 17 people: account notification settings are saved and shown again", async ({ page }) => {
      // Before: the issue page lists the owner among those its alerts e-mail (the check at the end needs this).
      await page.goto(`${SERVERS.main.url}/en/orgs/${project.org}/issues/${issueId}`);
      await expect(page.getByTestId("notify-alerts")).toContainText(OWNER.email);
      const settingsUrl = `${SERVERS.main.url}/en/account/notifications`;
      await page.goto(settingsUrl);
      await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
      const personal = page.getByTestId("notify-personal-form");
      await personal.getByLabel("Language of notifications").selectOption("de");
      await personal.getByLabel("Time zone").selectOption("Pacific/Auckland");
      await personal.getByLabel("Workflow notifications").selectOption("off");
      await personal.getByRole("button", { name: "Save" }).click();
      await expect(page.getByTestId("notify-personal-form").getByRole("status")).toHaveText("Saved.");
      const org = page.getByTestId(`notify-org-${project.org}`);
      await org.getByTestId("notify-summary-form").getByLabel("Weekly summary").selectOption("off");
      await org.getByTestId("notify-summary-form").getByRole("button", { name: "Save" }).click();
      await expect(page.getByTestId(`notify-org-${project.org}`).getByTestId("notify-summary-form").getByRole("status")).toHaveText("Saved.");
      const row = page.getByTestId(`notify-project-${project.slug}`);
      await row.getByLabel(/^E-mail alerts from/).selectOption("off");
      await row.getByRole("button", { name: "Save" }).click();
      await expect(page.getByTestId(`notify-project-${project.slug}`).getByRole("status")).toHaveText("Saved.");

      await page.goto(settingsUrl);
      await expect(page.getByTestId("notify-personal-form").getByLabel("Language of notifications")).toHaveValue("de");
      await expect(page.getByTestId("notify-personal-form").getByLabel("Time zone")).toHaveValue("Pacific/Auckland");
      await expect(page.getByTestId("notify-personal-form").getByLabel("Workflow notifications")).toHaveValue("off");
      await expect(page.getByTestId(`notify-org-${project.org}`).getByTestId("notify-summary-form").getByLabel("Weekly summary")).toHaveValue("off");
      await expect(page.getByTestId(`notify-project-${project.slug}`).getByLabel(/^E-mail alerts from/)).toHaveValue("off");
      // With e-mail off for the project, the issue page no longer lists the owner among those its alerts e-mail.
      await page.goto(`${SERVERS.main.url}/en/orgs/${project.org}/issues/${issueId}`);
      await expect(page.getByTestId("notify-alerts")).not.toContainText(OWNER.email);
    });
  });

  test("issue 17 people: the account's notification settings and the issue page have no serious axe-core violations", async ({ page }) => {
    await page.goto(`${SERVERS.main.url}/de/account/notifications`);
    await expect(page.getByRole("heading", { level: 1, name: "Benachrichtigungen" })).toBeVisible();
    const found = await seriousViolations(page, "a11y-account-notifications");
    await page.goto(`${SERVERS.main.url}/en/orgs/${project.org}/issues/${issueId}`);
    await expect(page.getByTestId("issue-notify")).toBeVisible();
    found.push(...(await seriousViolations(page, "a11y-issue-notify")));
    expect(found, `axe-core found serious or critical violations:\n\n${found.join("\n\n")}`).toEqual([]);
  });
});
