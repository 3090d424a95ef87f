// Structured logs in the browser (issue 19), against the production build: log lines sent to the real intake show on
// the project's logs page newest first; the search box (words, key:value), the level and the time range narrow them
// through the page's GET form; an attribute's value links to its search; a line sent while the page is open appears
// through the live tail without a reload; a line's trace link opens the trace page with the trace's logs, which links
// back to the logs narrowed to the trace; the event page links to its trace's logs. axe-core on the page with a tail line.
import { expect, test } from "@playwright/test";
import { STREAM_LIMITS } from "../../src/config/limits";
import { seriousViolations } from "./axe";
import { OWNER_STATE, screenshot } from "./helpers";
import { createProject, mainApi, type TestProject, unique, waitForEvent } from "./ingest-helpers";
import { SERVERS } from "./servers";

test.use({ storageState: OWNER_STATE });

const TRACE = crypto.randomUUID().replace(/-/g, "");

async function sendLogs(project: TestProject, items: Record<string, unknown>[]): Promise<void> {
  const url = `${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`;
  const header = { type: "log", item_count: items.length, content_type: "application/vnd.sentry.items.log+json" };
  const r = await fetch(url, { method: "POST", body: `{}\n${JSON.stringify(header)}\n${JSON.stringify({ items })}\n` });
  expect(r.status).toBe(200);
}

const line = (body: string, level: string, secondsAgo: number, attributes: Record<string, unknown> = {}) => ({
  timestamp: Date.now() / 1000 - secondsAgo,
  trace_id: TRACE,
  level,
  body,
  severity_number: { info: 9, warn: 13, error: 17 }[level],
  attributes: { "sentry.environment": { type: "string", value: "production" }, ...attributes },
});

test.describe("logs", () => {
  let project: TestProject;
  let marker: string;
  let logsUrl: string;

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "node" });
    marker = unique("lg").replaceAll("-", "");
    logsUrl = `${SERVERS.main.url}/en/orgs/${project.org}/projects/${project.slug}/logs`;
    await sendLogs(project, [
      line(`${marker} user signed in`, "info", 30, { "user.id": { type: "string", value: "42" } }),
      line(`${marker} cart is large`, "warn", 20, { cart_size: { type: "integer", value: 12 } }),
      line(`${marker} payment failed`, "error", 10, { order_id: { type: "integer", value: 1234 } }),
    ]);
    // An error of the same trace, for the event page's link.
    const eventId = crypto.randomUUID().replace(/-/g, "");
    const r = await fetch(`${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`, {
      method: "POST",
      body: `{"event_id":"${eventId}"}\n{"type":"event"}\n${JSON.stringify({ event_id: eventId, level: "error", message: `${marker} checkout broke`, contexts: { trace: { trace_id: TRACE, span_id: "1234567890abcdef" } } })}\n`,
    });
    expect(r.status).toBe(200);
    await waitForEvent(mainApi(request), project, eventId);
  });

  test("newest first; words, key:value, level and time range narrow the list; an attribute links to its search", async ({ page }) => {
    await expect(async () => {
      await page.goto(logsUrl);
      await expect(page.getByTestId("log-row")).toHaveCount(3, { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByTestId("log-message")).toHaveText([`${marker} payment failed`, `${marker} cart is large`, `${marker} user signed in`]);
    await screenshot(page, "logs");
    await page.getByLabel("Search", { exact: true }).fill("pay");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/query=pay/);
    await expect(page.getByTestId("log-message")).toHaveText([`${marker} payment failed`]);
    await page.getByLabel("Search", { exact: true }).fill("order_id:1234");
    await page.getByRole("button", { name: "Search" }).click();
    // The search before showed the same line: the new address says the list is this search's.
    await expect(page).toHaveURL(/query=order_id(%3A|:)1234/);
    await expect(page.getByTestId("log-message")).toHaveText([`${marker} payment failed`]);
    await page.goto(logsUrl);
    await page.getByTestId("log-level").selectOption("warn");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("log-message")).toHaveText([`${marker} cart is large`]);
    // A range that ends before the lines were sent: none; one around them: all.
    await page.goto(logsUrl);
    await page.getByTestId("log-to").fill("2020-01-01T00:00:00");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("logs-empty")).toBeVisible();
    await page.goto(`${logsUrl}?from=${new Date(Date.now() - 3_600_000).toISOString().slice(0, 19)}`);
    await expect(page.getByTestId("log-row")).toHaveCount(3);
    // The attribute's value is a link to its search.
    const row = page.getByTestId("log-row").filter({ hasText: "user signed in" });
    await row.locator("summary").click();
    await row.getByRole("link", { name: "42", exact: true }).click();
    await expect(page).toHaveURL(/query=user\.id%3A42/);
    await expect(page.getByTestId("log-message")).toHaveText([`${marker} user signed in`]);
    // A search the page cannot read says so, with a 200 and the form.
    await page.goto(`${logsUrl}?level=loud`);
    await expect(page.getByTestId("log-query-error")).toContainText("level");
  });

  test("the live tail shows a new line without a reload; axe finds nothing serious on the page", async ({ page }) => {
    await page.goto(logsUrl);
    await expect(page.getByTestId("log-row")).toHaveCount(3);
    await expect(page.getByTestId("log-live")).toHaveAttribute("data-following", "yes");
    const fresh = `${marker} arrived live`;
    await sendLogs(project, [line(fresh, "info", 0, { source: { type: "string", value: "tail" } })]);
    const tail = page.getByTestId("log-tail");
    await expect(tail.getByTestId("log-message")).toHaveText([fresh], { timeout: 20_000 });
    await screenshot(page, "logs-live-tail");
    expect(await seriousViolations(page, "logs-live-tail")).toEqual([]);
    // Stopped, a line sent meanwhile does not appear; started again, it does.
    await page.getByTestId("log-live-toggle").click();
    await expect(page.getByTestId("log-live")).toHaveAttribute("data-following", "no");
    const later = `${marker} arrived while stopped`;
    await sendLogs(project, [line(later, "warn", 0)]);
    // The line is stored (another page lists it), and the stopped tail stays unchanged for longer than a tail would
    // take to show it (the stream looks for new lines every STREAM_LIMITS.pollIntervalMs).
    const other = await page.context().newPage();
    await expect(async () => {
      await other.goto(logsUrl);
      await expect(other.getByTestId("log-message").first()).toHaveText(later, { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await other.close();
    await page.waitForTimeout(2 * STREAM_LIMITS.pollIntervalMs + 500);
    await expect(tail.getByTestId("log-message")).toHaveText([fresh]);
    await page.getByTestId("log-live-toggle").click();
    await expect(tail.getByTestId("log-message")).toHaveText([later, fresh], { timeout: 20_000 });
  });

  test("a line's trace link opens the trace with its logs; the trace page and the event page link to the logs of the trace", async ({ page }) => {
    await page.goto(`${logsUrl}?query=${encodeURIComponent(`${marker} payment`)}`);
    await page
      .getByTestId("log-row")
      .first()
      .getByRole("link", { name: new RegExp(TRACE) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/traces/${TRACE}$`));
    const section = page.getByTestId("trace-logs");
    await expect(section.getByTestId("trace-log-row").filter({ hasText: marker })).not.toHaveCount(0);
    await expect(section).toContainText(`${marker} payment failed`);
    await screenshot(page, "trace-logs");
    await section.getByTestId("trace-logs-link").first().click();
    await expect(page).toHaveURL(new RegExp(`trace=${TRACE}`));
    await expect(page.getByTestId("log-trace-filter")).toContainText(TRACE);
    await expect(page.getByTestId("log-row").first()).toBeVisible();
    // The event of the same trace links to these logs.
    await page.goto(`${SERVERS.main.url}/en/orgs/${project.org}/issues?project=${project.slug}`);
    await page
      .getByRole("link", { name: new RegExp(`${marker} checkout broke`) })
      .first()
      .click();
    await page.getByTestId("event-trace-logs-link").click();
    await expect(page).toHaveURL(new RegExp(`/projects/${project.slug}/logs\\?trace=${TRACE}`));
    await expect(page.getByTestId("log-row").filter({ hasText: `${marker} payment failed` })).toHaveCount(1);
  });
});
