// User feedback in the browser (issue 19), against the production build: feedback sent to the real intake (a user
// report and a feedback event for an error) shows in the organization's inbox, opens with its message, sender, page,
// browser and links to its event and issue, and is resolved and assigned through the page's forms; the user-feedback
// API takes the project's DSN. Faultline's own "Report a problem" (the feedback widget of its @sentry/nextjs) is
// submitted through its own form and reaches the internal project's inbox, with no style refused by the page's policy.
import { expect, test } from "@playwright/test";
import { OWNER_STATE, screenshot } from "./helpers";
import { createProject, expectJson, mainApi, type TestProject, unique, waitForEvent } from "./ingest-helpers";
import { SERVERS } from "./servers";

const hex = () => crypto.randomUUID().replace(/-/g, "");

test.use({ storageState: OWNER_STATE });

async function envelope(project: TestProject, header: Record<string, unknown>, type: string, payload: Record<string, unknown>): Promise<void> {
  const url = `${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`;
  const r = await fetch(url, { method: "POST", body: `${JSON.stringify(header)}\n{"type":"${type}"}\n${JSON.stringify(payload)}\n` });
  expect(r.status).toBe(200);
}

test.describe("user feedback", () => {
  let project: TestProject;
  let title: string;
  let message: string;
  let errorId: string;

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "javascript" });
    title = unique("checkout exploded");
    message = unique("The pay button spins forever");
    errorId = hex();
    await envelope(project, { event_id: errorId }, "event", { event_id: errorId, platform: "javascript", level: "error", message: title });
    await waitForEvent(mainApi(request), project, errorId);
    const feedbackId = hex();
    await envelope(project, { event_id: feedbackId }, "feedback", {
      event_id: feedbackId,
      type: "feedback",
      platform: "javascript",
      contexts: {
        feedback: {
          message,
          name: "Jane Doe",
          contact_email: "jane@example.com",
          url: "https://shop.example/checkout",
          associated_event_id: errorId,
          source: "widget",
        },
        browser: { name: "Firefox", version: "128.0" },
      },
    });
    await envelope(project, {}, "user_report", {
      event_id: errorId,
      name: "Old SDK",
      email: "old@example.com",
      comments: unique("Crash report from an older SDK"),
    });
  });

  test("the inbox lists the feedback; one opens with its sender, page, browser and links; resolving and assigning it", async ({ page }) => {
    const inbox = `${SERVERS.main.url}/en/orgs/${project.org}/feedback`;
    await expect(async () => {
      await page.goto(inbox);
      await expect(page.getByTestId("feedback-row").filter({ hasText: message })).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByTestId("feedback-row")).toHaveCount(2);
    await screenshot(page, "feedback-inbox");
    await page.getByRole("link", { name: message }).click();
    await expect(page.getByTestId("feedback-message")).toHaveText(message);
    const facts = page.getByTestId("feedback-facts");
    for (const text of ["Jane Doe", "jane@example.com", "https://shop.example/checkout", "Firefox 128.0"]) await expect(facts).toContainText(text);
    await expect(page.getByTestId("feedback-issue-link")).toHaveText(title);
    await expect(page.getByTestId("feedback-event-link")).toHaveAttribute("href", new RegExp(`/issues/\\d+/events/${errorId}$`));
    await screenshot(page, "feedback-detail");

    const assign = page.getByTestId("feedback-assign-form");
    await assign.getByLabel("Assignee").selectOption({ index: 1 });
    await assign.getByRole("button", { name: "Assign" }).click();
    await expect(facts).not.toContainText("Nobody");
    await page.getByTestId("feedback-resolved-form").getByRole("button", { name: "Resolve" }).click();
    await expect(page.getByTestId("feedback-new-form")).toBeVisible();
    await expect(facts).toContainText("Resolved");

    await page.goto(inbox);
    await expect(page.getByTestId("feedback-row")).toHaveCount(1, { timeout: 10_000 });
    await expect(page.getByTestId("feedback-row")).not.toContainText(message);
    await page.goto(`${inbox}?status=resolved`);
    await expect(page.getByTestId("feedback-row").filter({ hasText: message })).toHaveCount(1);

    // The issue page shows the feedback of its events.
    await page.getByRole("link", { name: message }).click();
    await page.getByTestId("feedback-issue-link").click();
    await expect(page.getByTestId("issue-feedback")).toContainText(message);
  });

  test("the user-feedback API takes the project's DSN, and refuses a body without an event id with 400", async ({ request }) => {
    const url = `${SERVERS.main.url}/api/0/projects/${project.org}/${project.slug}/user-feedback/`;
    const comments = unique("Sent with the DSN");
    const ok = await request.post(url, {
      headers: { authorization: `DSN ${project.dsn}` },
      data: { event_id: errorId, name: "Dee", email: "dee@example.com", comments },
    });
    const saved = await expectJson<{ id: string; eventID: string; comments: string; issue: { id: string } | null }>(ok, 200, "submit with the DSN");
    expect(saved.eventID).toBe(errorId);
    expect(saved.comments).toBe(comments);
    expect(saved.issue).not.toBeNull();
    const bad = await request.post(url, { headers: { authorization: `DSN ${project.dsn}` }, data: { comments: "no event" } });
    expect(bad.status()).toBe(400);
    const listed = await expectJson<{ comments: string }[]>(await mainApi(request).get(`/projects/${project.org}/${project.slug}/user-feedback/`), 200, "list");
    expect(listed.map((f) => f.comments)).toContain(comments);
  });

  test("Faultline's own 'Report a problem' widget sends through its form into the internal project's inbox", async ({ page }) => {
    const refused: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    // A query the page's URL carries stays out of the report, as out of every event of Faultline's own (redact-urls.ts).
    await page.goto(`${SERVERS.main.url}/en/orgs?token=widget-secret`);
    const trigger = page.getByRole("button", { name: "Report a problem" });
    await expect(trigger).toBeVisible({ timeout: 20_000 });
    await trigger.click();
    const text = unique("The releases page is slow");
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("Report a problem with Faultline")).toBeVisible();
    await dialog.getByLabel(/What went wrong/).fill(text);
    await screenshot(page, "feedback-widget");
    await dialog.getByRole("button", { name: "Send report" }).click();
    await expect(page.getByText("Thank you for your report.")).toBeVisible();
    await expect(async () => {
      await page.goto(`${SERVERS.main.url}/en/orgs/faultline-internal/feedback`);
      await expect(page.getByTestId("feedback-row").filter({ hasText: text })).toHaveCount(1, { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await page.getByRole("link", { name: text }).click();
    await expect(page.getByTestId("feedback-facts")).toContainText(`${SERVERS.main.origin}/en/orgs`);
    await expect(page.locator("main")).not.toContainText("widget-secret");
    // The browser SDK sends no browser context: the browser and OS come from its User-Agent header (Debian's Chromium).
    await expect(page.getByTestId("feedback-facts")).toContainText(/Chrome \d+/);
    await expect(page.getByTestId("feedback-facts")).toContainText("Linux");
    expect(refused).toEqual([]);
  });
});
