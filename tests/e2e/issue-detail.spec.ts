// The issue page in Chromium, against the production build, with events the official @sentry/node SDK sends to the
// real intake: an Error caused by a TypeError, with breadcrumbs, a user, a tag and the request. It steps through
// the events, reads the exception chain, frames and their source, the raw views and Markdown; comments; resolves
// in the next release and sees the regression when a newer release sends the error again.
import { expect, test, type Page } from "@playwright/test";
import { api, OWNER_STATE, watchHydration } from "./helpers";
import { createProject, expectJson, mainApi, run, sleep, type TestProject, unique } from "./ingest-helpers";
import { OWNER, SERVERS } from "./servers";

let project: TestProject;
let message: string;
let issueId: string;
let eventIds: string[];

/** Captures the chained error `count` times from `release` with the real SDK; returns the event ids. */
async function sendError(release: string, count: number, environment = "production"): Promise<string[]> {
  const r = await run(process.execPath, ["tests/e2e/sdk/node-chained-error.mjs", project.dsn, message, release, String(count), environment]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as string[];
}

const issuePath = () => `./en/orgs/${project.org}/issues/${issueId}`;

/** Reloads the issue page until `check` passes (the digest stores events a moment after the SDK's 200). */
async function untilShown(page: Page, check: () => Promise<void>) {
  for (let i = 0; ; i++) {
    await page.goto(issuePath());
    try {
      await check();
      return;
    } catch (err) {
      if (i >= 40) throw err;
      await sleep(250);
    }
  }
}

test.describe("issue detail", () => {
  test.describe.configure({ mode: "serial" });
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "node" });
    message = unique("checkout failed");
    eventIds = await sendError("detail@1.0.0", 3);
    let issues: { id: string; count: string }[] = [];
    for (let i = 0; i < 80; i++) {
      issues = await expectJson<{ id: string; count: string }[]>(
        await api(request).get(`/projects/${project.org}/${project.slug}/issues/?query=`),
        200,
        "issues",
      );
      if (issues.length === 1 && issues[0]!.count === "3") {
        issueId = issues[0]!.id;
        return;
      }
      await sleep(250);
    }
    throw new Error(`the digest did not make one issue of 3 events in time: ${JSON.stringify(issues)}`);
  });

  test("shows the issue, its exception chain with source, breadcrumbs, request, user, contexts, tags and frequency", async ({ page }) => {
    const hydrated = watchHydration(page);
    await page.goto(issuePath());
    await expect(page.getByTestId("issue-title")).toHaveText(`Error: ${message}`);
    await expect(page.getByTestId("issue-culprit")).toContainText("checkout");
    await expect(page.getByTestId("issue-level")).toHaveText("error");
    await expect(page.getByTestId("issue-status")).toHaveText("Unresolved");
    await expect(page.getByTestId("short-id")).toHaveText(/^[A-Z0-9-]+-1$/);
    await expect(page.getByTestId("times-seen")).toHaveText("3");
    await expect(page.getByTestId("first-seen")).toContainText("detail@1.0.0");
    await expect(page.getByTestId("last-seen")).toContainText("detail@1.0.0");
    await expect(page.getByTestId("event-id")).toHaveText(eventIds[2]!);

    // The error first, then what caused it.
    const exceptions = page.getByTestId("exception");
    await expect(exceptions).toHaveCount(2);
    await expect(exceptions.nth(0).locator("h3")).toHaveText("Error");
    await expect(exceptions.nth(0)).toContainText(message);
    await expect(exceptions.nth(1)).toContainText("Caused by");
    await expect(exceptions.nth(1).locator("h3")).toHaveText("TypeError");
    await expect(exceptions.nth(1)).toContainText("cart service unavailable for c-17 after 3 attempts");

    // Only the application's frames until asked for all; the top one opened on its source.
    const top = exceptions.nth(0);
    const system = top.locator('.frame[data-in-app="false"]');
    const inApp = top.locator('.frame[data-in-app="true"]');
    expect(await system.count()).toBeGreaterThan(0);
    await expect(inApp.first()).toBeVisible();
    await expect(system.first()).toBeHidden();
    await top.getByLabel("Only frames of the application").uncheck();
    await expect(system.first()).toBeVisible();
    await top.getByLabel("Only frames of the application").check();
    await expect(system.first()).toBeHidden();
    await expect(inApp.first().locator("summary")).toContainText("checkout");
    const source = inApp.first().getByTestId("context-lines");
    await expect(source).toBeVisible();
    await expect(source.locator('[aria-current="true"]')).toContainText("throw new Error(message, { cause })");
    await expect(source).toContainText("loadCart(cartId);");
    await expect(inApp.first().getByTestId("frame-vars")).toContainText("cartId");
    await expect(inApp.first().getByTestId("frame-vars")).toContainText("c-17");

    // The raw stack trace, as text.
    await top.getByText("Raw stack trace").click();
    const raw = top.getByTestId("raw-stacktrace");
    await expect(raw).toBeVisible();
    expect(await raw.textContent()).toMatch(new RegExp(`^Error: ${message}\\n  at checkout \\(.*node-chained-error\\.mjs:\\d+:\\d+\\)`));

    await expect(page.getByTestId("breadcrumbs")).toContainText("clicked Pay");
    await expect(page.getByTestId("breadcrumbs")).toContainText("loading the cart");
    await expect(page.getByTestId("request")).toContainText("POST https://shop.example.com/checkout?step=pay");
    await expect(page.getByTestId("request")).toContainText("e2e-browser/1.0");
    await expect(page.getByTestId("user")).toContainText("ada@example.com");
    await expect(page.getByTestId("user")).toContainText("user-42");
    await expect(page.getByTestId("context-runtime")).toContainText("node");
    await expect(page.getByTestId("context-os")).toBeVisible();
    await expect(page.getByTestId("tag-feature")).toContainText("checkout");
    await expect(page.getByTestId("tag-feature")).toContainText("100%");
    await expect(page.getByTestId("tag-release")).toContainText("detail@1.0.0");
    await expect(page.getByTestId("frequency-24h")).toContainText("3 events");
    await expect(page.getByTestId("frequency-30d")).toContainText("3 events");
    await expect(page.getByTestId("frequency-24h").locator(".chart-canvas")).toHaveAttribute("data-ready", "true");
    await expect(page.getByTestId("frequency-30d").locator("canvas")).toHaveCount(1);
    // Breadcrumbs and tags are client components fed the server's data (breadcrumb-list.tsx, tag-list.tsx); the
    // charts above are drawn by effects, so the page has committed.
    await hydrated(page.getByTestId("breadcrumbs").locator("ol"));
    await hydrated(page.getByTestId("tag-feature"));

    // The stored event as JSON, folded away until opened.
    const json = page.getByTestId("raw-json");
    await expect(json.locator("pre")).toBeHidden();
    await json.locator("summary").click();
    await expect(json.locator("pre")).toBeVisible();
    await expect(json.locator("pre")).toContainText(`"event_id": "${eventIds[2]}"`);

    await page.screenshot({ path: "test-results/screens/issue-detail.png", fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: "test-results/screens/issue-detail-dark.png", fullPage: true });

    // 768 px wide: one column, nothing wider than the window (long lines scroll inside their own boxes).
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto(issuePath());
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
  });

  test("copy as Markdown puts the summary on the clipboard", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: SERVERS.main.origin });
    await page.goto(issuePath());
    await page.getByTestId("copy-markdown").click();
    await expect(page.getByText("Copied.")).toBeVisible();
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown).toMatch(new RegExp(`^## \\[[A-Z0-9-]+-1\\] \`Error: ${message}\`\\n`));
    expect(markdown).toContain(`${SERVERS.main.origin}/en/orgs/${project.org}/issues/${issueId}\n`);
    expect(markdown).toContain("**First seen:**");
    expect(markdown).toContain("(`detail@1.0.0`)");
    expect(markdown).toContain("Caused by **`TypeError`**: `cart service unavailable for");
    expect(markdown).toMatch(/- `checkout` in `.*node-chained-error\.mjs:\d+:\d+`/);
  });

  test("steps through the events: oldest, next, previous, latest", async ({ page }) => {
    await page.goto(issuePath());
    await expect(page.getByTestId("event-id")).toHaveText(eventIds[2]!);
    await expect(page.getByTestId("event-next")).toHaveAttribute("aria-disabled", "true");
    await page.getByTestId("event-oldest").click();
    await expect(page).toHaveURL(/\/events\/oldest$/);
    await expect(page.getByTestId("event-id")).toHaveText(eventIds[0]!);
    await expect(page.getByTestId("event-previous")).toHaveAttribute("aria-disabled", "true");
    await page.getByTestId("event-next").click();
    await expect(page).toHaveURL(new RegExp(`/events/${eventIds[1]}$`));
    await expect(page.getByTestId("event-id")).toHaveText(eventIds[1]!);
    await page.getByTestId("event-previous").click();
    await expect(page.getByTestId("event-id")).toHaveText(eventIds[0]!);
    await page.getByTestId("event-latest").click();
    await expect(page).toHaveURL(/\/events\/latest$/);
    await expect(page.getByTestId("event-id")).toHaveText(eventIds[2]!);

    // Another organization's slug, or an event of no issue, is not found.
    expect((await page.goto(`./en/orgs/no-such-org/issues/${issueId}`))?.status()).toBe(404);
    expect((await page.goto(`${issuePath()}/events/${"0".repeat(32)}`))?.status()).toBe(404);
  });

  test("comments: add, edit and delete", async ({ page }) => {
    await page.goto(issuePath());
    const add = page.getByTestId("add-comment");
    await add.getByRole("button", { name: "Add comment" }).click();
    await expect(add.getByRole("alert")).toHaveText("Please correct the highlighted fields.");
    await add.getByLabel("Comment").fill("Looks like the cart service times out.");
    await add.getByRole("button", { name: "Add comment" }).click();
    const comment = page.getByTestId("comment");
    await expect(comment).toHaveCount(1);
    await expect(comment.locator(".note-text")).toHaveText("Looks like the cart service times out.");
    await expect(add.getByLabel("Comment")).toHaveValue("");

    await comment.getByText("Edit").click();
    await comment.getByLabel("Comment").fill("The cart service times out after 3 attempts.");
    await comment.getByRole("button", { name: "Save" }).click();
    await expect(comment.locator(".note-text")).toHaveText("The cart service times out after 3 attempts.");
    await page.reload();
    await expect(page.getByTestId("comment").locator(".note-text")).toHaveText("The cart service times out after 3 attempts.");

    await page.getByTestId("comment").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByTestId("comment")).toHaveCount(0);
  });

  test("resolve in the next release; the error from a newer release reopens it as a regression", async ({ page }) => {
    await page.goto(issuePath());
    await page.getByTestId("resolve-next-form").getByRole("button", { name: "Resolve in next release" }).click();
    await expect(page.getByTestId("issue-status")).toHaveText("Resolved");
    await expect(page.getByTestId("activity").locator('[data-type="set_resolved_in_release"]')).toContainText(
      "resolved the issue in the release after detail@1.0.0",
    );
    await expect(page.getByTestId("unresolve-form")).toBeVisible();

    // The same release still has the bug: no regression.
    await sendError("detail@1.0.0", 1);
    await untilShown(page, async () => expect(page.getByTestId("times-seen")).toHaveText("4", { timeout: 500 }));
    await expect(page.getByTestId("issue-status")).toHaveText("Resolved");

    await sendError("detail@1.1.0", 1);
    await untilShown(page, async () => expect(page.getByTestId("issue-status")).toHaveText("Unresolved · regressed", { timeout: 500 }));
    await expect(page.getByTestId("activity").locator('[data-type="set_regression"]')).toContainText("marked the issue as a regression in detail@1.1.0");
    await expect(page.getByTestId("last-seen")).toContainText("detail@1.1.0");
    await expect(page.getByTestId("first-seen")).toContainText("detail@1.0.0");
    await expect(page.getByTestId("resolve-form")).toBeVisible();
  });

  test("?environment= steps through that environment's events and counts its tags and chart from them; one without events shows all, and says so", async ({
    page,
    request,
  }) => {
    const [production] = (await expectJson<{ eventID: string }[]>(await api(request).get(`/issues/${issueId}/events/?per_page=1`), 200, "events")).map(
      (e) => e.eventID,
    );
    const [staging] = await sendError("detail@1.1.0", 1, "staging");
    await untilShown(page, async () => expect(page.getByTestId("event-id")).toHaveText(staging!, { timeout: 500 }));

    await page.goto(`${issuePath()}?environment=staging`);
    await expect(page.getByTestId("environment-note")).toContainText("staging");
    await expect(page.getByTestId("event-id")).toHaveText(staging!);
    await expect(page.getByTestId("event-previous")).toHaveAttribute("aria-disabled", "true");
    await expect(page.getByTestId("event-oldest")).toHaveAttribute("aria-disabled", "true");
    // Its tags and chart count that environment's events only, and say so.
    await expect(page.getByTestId("tags-environment")).toHaveText("From the latest event in staging.");
    await expect(page.getByTestId("tag-environment")).toContainText("staging");
    await expect(page.getByTestId("tag-environment")).not.toContainText("production");
    await expect(page.getByTestId("frequency-environment")).toContainText("Events in staging");

    await page.goto(`${issuePath()}?environment=production`);
    await expect(page.getByTestId("event-id")).toHaveText(production!);
    await expect(page.getByTestId("event-next")).toHaveAttribute("aria-disabled", "true");
    await page.getByTestId("event-previous").click();
    await expect(page).toHaveURL(/\/events\/[0-9a-f]{32}\?environment=production$/);
    await expect(page.getByTestId("event-next")).toHaveAttribute("href", new RegExp(`/events/${production}\\?environment=production$`));

    await page.goto(`${issuePath()}?environment=nowhere`);
    await expect(page.getByTestId("outside-environment")).toContainText("nowhere");
    await expect(page.getByTestId("event-id")).toHaveText(staging!);
    await expect(page.getByTestId("tag-environment")).toContainText("production");
    await expect(page.getByTestId("tags-environment")).toHaveCount(0);

    // The API's event endpoints take the same filter, as Sentry's do.
    const latest = await expectJson<{ eventID: string; nextEventID: string | null }>(
      await api(request).get(`/issues/${issueId}/events/latest/?environment=production`),
      200,
      "latest",
    );
    expect([latest.eventID, latest.nextEventID]).toEqual([production, null]);
    expect((await api(request).get(`/issues/${issueId}/events/latest/?environment=nowhere`)).status()).toBe(404);
  });

  test("assign, ignore until a count, unresolve and delete", async ({ page }) => {
    await page.goto(issuePath());
    const assign = page.getByTestId("assign-form");
    await assign.getByLabel("Assignee").selectOption({ label: `${OWNER.name} <${OWNER.email}>` });
    await assign.getByRole("button", { name: "Assign" }).click();
    await expect(page.getByText(`Assigned to ${OWNER.name}`)).toBeVisible();
    await expect(page.getByTestId("activity").locator('[data-type="assigned"]')).toContainText(OWNER.email);

    await page.getByTestId("ignore").locator("summary").click();
    const ignore = page.getByTestId("ignore-form");
    await ignore.getByLabel("Or until it happens this many more times").fill("0");
    await ignore.getByRole("button", { name: "Ignore" }).click();
    await expect(ignore.getByRole("alert")).toHaveText("Please correct the highlighted fields.");
    await ignore.getByLabel("Or until it happens this many more times").fill("100");
    await ignore.getByLabel("Counted").first().selectOption({ label: "per hour" });
    await ignore.getByRole("button", { name: "Ignore" }).click();
    await expect(page.getByTestId("issue-status")).toHaveText("Ignored");
    await page.getByTestId("unresolve-form").getByRole("button", { name: "Unresolve" }).click();
    await expect(page.getByTestId("issue-status")).toHaveText("Unresolved");

    await page.getByTestId("delete-issue").locator("summary").click();
    await page.getByRole("button", { name: "Delete issue" }).click();
    await expect(page).toHaveURL(new RegExp(`/en/orgs/${project.org}/issues\\?project=${project.slug}$`));
    expect((await page.goto(issuePath()))?.status()).toBe(404);
  });
});
