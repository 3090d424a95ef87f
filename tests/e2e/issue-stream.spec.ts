// The issue stream in Chromium against the production build: search with suggestions, sorts, cursor pages forward
// and back, bulk resolve, an event sent by @sentry/node arriving live without a reload (a new issue announced, then
// its count changing in place), and the empty state whose "Send a test event" makes a real issue through the intake.
import { expect, type Page, test } from "@playwright/test";
import { OWNER_STATE, watchHydration } from "./helpers";
import { createProject, expectJson, mainApi, run, sleep, type TestProject, unique } from "./ingest-helpers";
import { OWNER, SERVERS } from "./servers";

const hex = () => crypto.randomUUID().replace(/-/g, "");
let project: TestProject;
const titles = { alpha: unique("stream alpha"), beta: unique("stream beta") };
const FILLER = 26;
const LETTERS = "ghjkmnpqrstuvwxyz";

/** Sends one event to the project's intake as an SDK would. */
async function send(p: TestProject, payload: Record<string, unknown>) {
  const id = hex();
  const body = `{"event_id":"${id}"}\n{"type":"event"}\n${JSON.stringify({ event_id: id, platform: "node", level: "error", ...payload })}\n`;
  const r = await fetch(`${SERVERS.main.origin}/api/${p.id}/envelope/?sentry_key=${p.publicKey}&sentry_version=7`, { method: "POST", body });
  expect(r.status).toBe(200);
}

/** Sends an exception with the unmodified @sentry/node SDK. */
async function sendWithSdk(p: TestProject, message: string) {
  const r = await run(process.execPath, ["tests/e2e/sdk/node-sdk.mjs", p.dsn, message]);
  expect(r.code, r.stderr).toBe(0);
  expect((JSON.parse(r.stdout) as { statusCode: number }).statusCode).toBe(200);
}

const streamUrl = (p: TestProject, query = "") => `/en/orgs/${p.org}/issues?project=${p.slug}${query}`;
const rows = (page: Page) => page.getByTestId("issue-row");
const row = (page: Page, title: string) => rows(page).filter({ hasText: title });

test.describe("issue stream", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "node" });
    const at = (ago: number) => Date.now() / 1000 - ago;
    // Letters, not numbers: grouping treats numbers in a message as parameters of one message.
    const word = (i: number) => `${LETTERS[i % LETTERS.length]}${LETTERS[Math.floor(i / LETTERS.length)]}`;
    for (let i = 0; i < FILLER; i++) await send(project, { message: `filler ${word(i)} quiet`, timestamp: at(3600 + i) });
    for (const ago of [300, 200, 100]) await send(project, { message: titles.alpha, timestamp: at(ago) });
    await send(project, { message: titles.beta, level: "warning", timestamp: at(50) });
    const total = FILLER + 2;
    for (let i = 0; i < 120; i++) {
      const listed = await expectJson<unknown[]>(
        await mainApi(request).get(`/projects/${project.org}/${project.slug}/issues/?query=&per_page=100`),
        200,
        "issues",
      );
      if (listed.length === total) return;
      await sleep(250);
    }
    throw new Error("the events were not digested in time");
  });

  test("search with suggestions, sort, pages, bulk resolve", async ({ page }) => {
    const hydrated = watchHydration(page);
    await page.goto(streamUrl(project));
    await expect(rows(page)).toHaveCount(25);
    // The rows are a client component fed text the server formatted (issue-rows.tsx).
    await hydrated(rows(page).first());
    await expect(page.getByTestId("issue-search")).toHaveValue("is:unresolved");
    await expect(row(page, titles.alpha).locator("svg.sparkline path.sparkline-bars")).toHaveCount(1);
    await expect(rows(page).locator(".badge.level-warning")).toHaveCount(1);
    await page.screenshot({ path: "test-results/screens/issue-stream.png", fullPage: true });

    // Pages: next, then previous, by the core's cursors.
    await page.getByTestId("page-next").click();
    await expect(rows(page)).toHaveCount(FILLER + 2 - 25);
    await page.getByTestId("page-prev").click();
    await expect(rows(page)).toHaveCount(25);
    await expect(page.getByTestId("page-prev")).toHaveCount(0);

    // Suggestions: keys first, then the key's values; choosing them writes the query.
    const search = page.getByTestId("issue-search");
    await search.fill("lev");
    const suggestions = page.getByTestId("search-suggestions");
    await suggestions.getByRole("option", { name: "level:" }).click();
    await expect(search).toHaveValue("level:");
    await expect(suggestions.getByRole("option", { name: "warning" })).toBeVisible();
    await search.press("ArrowDown");
    await search.press("ArrowDown");
    await search.press("ArrowDown");
    await search.press("Enter");
    await expect(search).toHaveValue("level:warning ");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/query=level%3Awarning/);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(titles.beta);

    // Free text with a level.
    await search.fill(`level:error "${titles.alpha}"`);
    await search.press("Enter");
    // A plain GET form: wait for the new document, or the old page's single row would be read.
    await expect(page).toHaveURL(/query=level%3Aerror/);
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(titles.alpha);

    // Sorts: by events the alpha issue (three events) leads; by first seen the newest filler does not.
    await page.goto(streamUrl(project));
    await page.getByTestId("sort-freq").click();
    await expect(page).toHaveURL(/sort=freq/);
    await expect(rows(page).first()).toContainText(titles.alpha);
    await expect(rows(page).first().getByTestId("issue-events")).toHaveText("3");
    await page.getByTestId("sort-new").click();
    await expect(page).toHaveURL(/sort=new/);
    await expect(rows(page).first()).toContainText(titles.beta);

    // Bulk resolve two issues; they leave the unresolved stream and show up as resolved.
    await page.goto(streamUrl(project));
    await row(page, titles.alpha).getByRole("checkbox").check();
    await row(page, titles.beta).getByRole("checkbox").check();
    await page.getByTestId("bulk-resolve").click();
    await expect(page.getByTestId("bulk-form").getByRole("status")).toHaveText("2 issues updated.");
    await expect(row(page, titles.alpha)).toHaveCount(0);
    await expect(row(page, titles.beta)).toHaveCount(0);
    await page.goto(streamUrl(project, "&query=is%3Aresolved"));
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).first()).toHaveAttribute("data-status", "resolved");
  });

  test("a new event from @sentry/node arrives live: announced as a new issue, then its count changes in place", async ({ page }) => {
    await page.goto(streamUrl(project));
    await expect(rows(page)).toHaveCount(25);
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const message = unique("live failure");
    await sendWithSdk(project, message);
    await expect(page.getByTestId("new-issues")).toHaveText("1 new issue", { timeout: 20_000 });
    await page.getByTestId("stream-live").getByRole("button", { name: "Show" }).click();
    const live = row(page, message);
    await expect(live).toHaveCount(1);
    await expect(live.getByTestId("issue-events")).toHaveText("1");
    await expect(page.getByTestId("new-issues")).toHaveCount(0);

    await sendWithSdk(project, message);
    await expect(live.getByTestId("issue-events")).toHaveText("2", { timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument), "the page was never reloaded").toBe(true);
  });

  test("empty state: the DSN, the guide, and a test event that becomes an issue", async ({ page, request }) => {
    const empty = await createProject(mainApi(request), { platform: "python" });
    await page.goto(`/en/orgs/${empty.org}/issues`);
    const card = page.getByTestId("stream-empty");
    await expect(card).toContainText("No issues yet");
    await expect(card.getByRole("textbox")).toHaveValue(empty.dsn);
    await expect(card.getByRole("link", { name: "Open the SDK setup guide" })).toHaveAttribute("href", /\/en\/docs\/.*#dsn=/);
    await page.screenshot({ path: "test-results/screens/issue-stream-empty.png", fullPage: true });
    await card.getByRole("button", { name: "Send a test event" }).click();
    await expect(card.getByRole("status")).toHaveText("Test event sent. Its issue appears in a moment.");
    await expect(page.getByTestId("new-issues")).toHaveText("1 new issue", { timeout: 20_000 });
    await page.getByTestId("stream-live").getByRole("button", { name: "Show" }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("This is a test event sent from Faultline");
  });

  test("ignore until a number of events, and assign to a member, from the bulk bar", async ({ page }) => {
    await page.goto(streamUrl(project));
    const [first, second] = [row(page, "filler gg quiet"), row(page, "filler hg quiet")];
    await first.getByRole("checkbox").check();
    await page.getByText("Ignore…").click();
    await page.getByLabel("Until this many more events:").check();
    await page.getByLabel("Number of events").fill("5");
    await page.getByTestId("bulk-ignore").click();
    await expect(page.getByTestId("bulk-form").getByRole("status")).toHaveText("1 issue updated.");
    await expect(first).toHaveCount(0);
    await second.getByRole("checkbox").check();
    await page.getByLabel("Assign to").selectOption({ label: `${OWNER.name} (${OWNER.email})` });
    await page.getByTestId("bulk-assign").click();
    await expect(second.locator("td").last()).toHaveText(OWNER.name);
    await page.goto(streamUrl(project, "&query=is%3Aignored"));
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("filler gg quiet");
    await page.goto(streamUrl(project, `&query=${encodeURIComponent(`assigned:${OWNER.email}`)}`));
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("filler hg quiet");
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("searching is a GET form and bulk resolve still works", async ({ page }) => {
      await page.goto(streamUrl(project));
      await page.getByTestId("issue-search").fill("filler jg");
      await page.getByRole("button", { name: "Search", exact: true }).click();
      await expect(page).toHaveURL(/query=filler\+jg/);
      await expect(rows(page)).toHaveCount(1);
      await rows(page).first().getByRole("checkbox").check();
      await page.getByTestId("bulk-resolve").click();
      await expect(page.getByText("1 issue updated.")).toBeVisible();
      await page.goto(streamUrl(project, "&query=is%3Aresolved%20filler%20jg"));
      await expect(rows(page)).toHaveCount(1);
    });
  });

  test("at 768 px wide the page does not scroll sideways", async ({ page }) => {
    await page.setViewportSize({ width: 768, height: 1000 });
    await page.goto(streamUrl(project));
    await expect(rows(page)).not.toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
  });

  test("the live stream refuses strangers and bad parameters", async ({ page }) => {
    const status = async (get: Promise<{ status: () => number }>) => (await get).status();
    const base = `${SERVERS.main.url}/api/internal/orgs`;
    const anonymous = await fetch(`${base}/${project.org}/issues/stream`, { signal: AbortSignal.timeout(10_000) });
    expect(anonymous.status, "without a session").toBe(401);
    expect(await status(page.request.get(`${base}/no-such-org/issues/stream`, { timeout: 10_000 })), "unknown organization").toBe(404);
    expect(await status(page.request.get(`${base}/${project.org}/issues/stream?after=x`, { timeout: 10_000 })), "bad after").toBe(400);
    expect(await status(page.request.get(`${base}/${project.org}/issues/stream?query=level%3Aloud`, { timeout: 10_000 })), "bad search").toBe(400);
  });
});
