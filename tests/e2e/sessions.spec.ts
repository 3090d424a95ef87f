// Issue 20, sessions, against a production build in Chromium: one person signed in from two browser contexts (two
// devices) sees both on the account page, this one marked; signing out the other makes that browser's next page land
// on the sign-in page and its open live stream (the issue stream, server-sent events) end as signed out; "sign out all
// other sessions"; a password change signs out the other sessions and ends their streams. A revoke with another
// person's session id, garbage, NUL bytes or a huge id gets a clear message (past the actions' body limit, 413), never
// a 500. Axe-clean in English and German.
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { seriousViolations } from "./axe";
import { cli, screenshot, signIn } from "./helpers";
import { apiAt, createProject, type TestProject, unique } from "./ingest-helpers";
import { SERVERS } from "./servers";
import { type Frame, Stream } from "./sse-stream";

const PASSWORD = "sessions-password-1";
const GUEST = { cookies: [], origins: [] };
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const SIGNED_OUT = JSON.stringify({ code: "signed_out", reason: "The session was signed out" });

/**
 * Reads `stream` in the background from now on (its polls' frames pile up while the test works elsewhere); resolves
 * with its `end` frame, or null if it closed without one.
 */
function endOfStream(stream: Stream): Promise<Frame | null> {
  return (async () => {
    for (;;) {
      const frame = await stream.next();
      if (!frame || frame.event === "end") return frame;
    }
  })();
}

type Device = { context: BrowserContext; page: Page; cookie: string };

/** A fresh browser context signed in as `email` (with `userAgent`, a device of its own). */
async function device(browser: Browser, email: string, userAgent?: string): Promise<Device> {
  const context = await browser.newContext({ storageState: GUEST, baseURL: `${SERVERS.main.url}/`, ...(userAgent ? { userAgent } : {}) });
  const page = await context.newPage();
  await signIn(page, email, PASSWORD);
  await expect(page).not.toHaveURL(/sign-in/);
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  return { context, page, cookie };
}

/** A person of their own, member of an organization with a project (for the issue stream). */
function person(): string {
  const email = `${unique("sessions")}@example.com`;
  cli("main", "createuser", "--email", email, "--password", PASSWORD, "--superuser", "--no-input");
  return email;
}

async function projectOf(request: Parameters<typeof apiAt>[0], email: string): Promise<TestProject> {
  return createProject(apiAt(request, SERVERS.main.url, cli("main", "createtoken", "--email", email)), { platform: "node" });
}

const streamUrl = (p: TestProject) => `${SERVERS.main.url}/api/internal/orgs/${p.org}/issues/stream?project=${p.slug}`;

/** Expects the next page `d` opens to land on the sign-in page. */
async function expectSignedOut(d: Device): Promise<void> {
  await d.page.goto("./en/account");
  await expect(d.page).toHaveURL(/\/en\/sign-in/);
}

test.describe("issue 20 sessions", () => {
  test("both sessions listed, this one marked; signing out the other ends its next page at sign-in and its open live stream at once", async ({
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const email = person();
    const project = await projectOf(request, email);
    const laptop = await device(browser, email);
    const phone = await device(browser, email, IPHONE);

    // The phone follows the issue stream: in its page (EventSource) and over a raw connection read frame by frame.
    const connected = phone.page.waitForResponse((r) => r.url().includes("/issues/stream"));
    await phone.page.goto(`./en/orgs/${project.org}/issues?project=${project.slug}`);
    await connected;
    const stream = await Stream.open(streamUrl(project), phone.cookie);
    expect((await stream.next())?.event, "the first poll's frame").toBe("new");
    const ended = endOfStream(stream);

    await laptop.page.goto("./en/account/sessions");
    await expect(laptop.page.getByRole("heading", { level: 1, name: "Sessions" })).toBeVisible();
    const rows = laptop.page.getByTestId("session-row");
    await expect(rows).toHaveCount(2);
    const mine = laptop.page.locator('[data-testid="session-row"][data-current="true"]');
    await expect(mine.getByTestId("this-session")).toHaveText("This session");
    await expect(mine).toContainText("Chrome");
    await expect(mine).toContainText("desktop");
    await expect(mine.locator("code")).toHaveText(/^203\.0\.113\.\d+$/);
    await expect(mine.getByRole("button")).toHaveCount(0);
    const other = laptop.page.locator('[data-testid="session-row"][data-current="false"]');
    await expect(other).toContainText("Safari 17");
    await expect(other).toContainText("iOS");
    await expect(other).toContainText("mobile");
    await screenshot(laptop.page, "account-sessions");
    const a11y = [...(await seriousViolations(laptop.page, "a11y-account-sessions-en"))];
    await laptop.page.goto("./de/account/sessions");
    await expect(laptop.page.getByRole("heading", { level: 1, name: "Sitzungen" })).toBeVisible();
    await expect(laptop.page.getByTestId("this-session")).toHaveText("Diese Sitzung");
    a11y.push(...(await seriousViolations(laptop.page, "a11y-account-sessions-de")));
    expect(a11y).toEqual([]);

    await laptop.page.goto("./en/account/sessions");
    await other.getByRole("button", { name: /Sign out/ }).click();
    await expect(laptop.page.getByTestId("sessions-done")).toHaveText("The session was signed out.");
    await expect(rows).toHaveCount(1);
    await expect(laptop.page.getByText("This is your only session.")).toBeVisible();

    // The phone's open stream ends as signed out and closes; its page says so; its next page is the sign-in page.
    expect((await ended)?.data).toBe(SIGNED_OUT);
    expect(await stream.next(), "the stream is closed").toBeNull();
    await expect(phone.page.getByTestId("live-ended")).toHaveAttribute("data-code", "signed_out");
    await expectSignedOut(phone);
    // The laptop carries on.
    await laptop.page.goto("./en/account/sessions");
    await expect(laptop.page).toHaveURL(/\/en\/account\/sessions/);
    await laptop.context.close();
    await phone.context.close();
  });

  test('"sign out all other sessions" ends every other one, this one stays', async ({ browser }) => {
    const email = person();
    const laptop = await device(browser, email);
    const phone = await device(browser, email, IPHONE);
    const tablet = await device(browser, email);
    await laptop.page.goto("./en/account/sessions");
    await expect(laptop.page.getByTestId("session-row")).toHaveCount(3);
    await laptop.page.getByRole("button", { name: "Sign out all other sessions" }).click();
    await expect(laptop.page.getByTestId("sessions-done")).toHaveText("2 other sessions were signed out.");
    await expect(laptop.page.getByTestId("session-row")).toHaveCount(1);
    await expectSignedOut(phone);
    await expectSignedOut(tablet);
    await laptop.page.reload();
    await expect(laptop.page.getByTestId("this-session")).toBeVisible();
    for (const d of [laptop, phone, tablet]) await d.context.close();
  });

  test("a password change signs out the other sessions and ends their live streams", async ({ browser, request }) => {
    const email = person();
    const project = await projectOf(request, email);
    const laptop = await device(browser, email);
    const phone = await device(browser, email, IPHONE);
    const stream = await Stream.open(streamUrl(project), phone.cookie);
    expect((await stream.next())?.event).toBe("new");
    const ended = endOfStream(stream);
    await laptop.page.goto("./en/account");
    await laptop.page.getByLabel("Current password").fill(PASSWORD);
    await laptop.page.getByLabel("New password", { exact: true }).fill("sessions-password-2");
    await laptop.page.getByLabel("Repeat new password").fill("sessions-password-2");
    await laptop.page.getByRole("button", { name: "Change password" }).click();
    await expect(laptop.page.getByRole("status")).toHaveText("Your password was changed. Other sessions were signed out.");
    expect((await ended)?.data).toBe(SIGNED_OUT);
    expect(await stream.next()).toBeNull();
    await expectSignedOut(phone);
    await laptop.page.goto("./en/account/sessions");
    await expect(laptop.page.getByTestId("session-row")).toHaveCount(1);
    await expect(laptop.page.getByTestId("this-session")).toBeVisible();
    for (const d of [laptop, phone]) await d.context.close();
  });

  test("bad input: another person's session id, garbage, NUL bytes and a huge id get a clear message, never a 500", async ({ browser }) => {
    const email = person();
    const carol = person();
    const laptop = await device(browser, email);
    const phone = await device(browser, email, IPHONE);
    // Carol's other session's id, as her own page holds it.
    const carolA = await device(browser, carol);
    const carolB = await device(browser, carol, IPHONE);
    await carolA.page.goto("./en/account/sessions");
    const carolsSession = await carolA.page.locator('[data-testid="session-row"][data-current="false"] input[name="sessionId"]').inputValue();
    expect(carolsSession).toMatch(/^[A-Za-z0-9]{16,}$/);

    const statuses: number[] = [];
    laptop.page.on("response", (r) => statuses.push(r.status()));
    await laptop.page.goto("./en/account/sessions");
    const form = laptop.page.locator('[data-testid="session-row"][data-current="false"]').getByTestId("revoke-session-form");
    const tryId = async (value: string, message: string) => {
      await form.locator('input[name="sessionId"]').evaluate((el, v) => ((el as HTMLInputElement).value = v), value);
      const answered = laptop.page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/account/sessions"));
      await form.getByRole("button").click();
      expect((await answered).status()).toBe(200);
      await expect(form.getByRole("alert")).toHaveText(message);
    };
    await tryId(carolsSession, "Session not found (it may have been signed out already)");
    await tryId("not a session!", "Not a session id");
    await tryId("abc\u0000def", "Not a session id");
    await tryId("x".repeat(100_000), "Not a session id");
    await tryId("", "Choose a session");
    // Past the server actions' body limit (ACTION_LIMITS.maxBodyBytes) the server refuses the body itself: 413.
    await form.locator('input[name="sessionId"]').evaluate((el) => ((el as HTMLInputElement).value = "x".repeat(2 * 1024 * 1024)));
    const tooLarge = laptop.page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/account/sessions"));
    await form.getByRole("button").click();
    expect((await tooLarge).status()).toBe(413);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Nothing was signed out: Carol's sessions and the phone carry on.
    await carolB.page.goto("./en/account/sessions");
    await expect(carolB.page).toHaveURL(/\/en\/account\/sessions/);
    await phone.page.goto("./en/account/sessions");
    await expect(phone.page.getByTestId("session-row")).toHaveCount(2);
    for (const d of [laptop, phone, carolA, carolB]) await d.context.close();
  });
});
