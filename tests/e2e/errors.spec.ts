// runtime-spec §8: when an error escapes every boundary, the framework's fallback shows with its exact wording;
// the server-side variant shows the digest. Route errors inside the dashboard get a boundary with a retry.
import { expect, test } from "@playwright/test";
import { cli, OWNER_STATE, submitSignIn } from "./helpers";

test.describe("runtime-spec §8: error catalogue", () => {
  test.use({ storageState: OWNER_STATE });

  test("§8 a server-side exception shows the framework's server-side fallback with the digest", async ({ page }) => {
    const res = await page.goto("./en/diagnostics/server-error");
    expect(res?.status()).toBe(500);
    await expect(page.locator("h2")).toHaveText("Application error: a server-side exception has occurred (see the server logs for more information).");
    await expect(page.locator("p")).toHaveText(/^Digest: \S+$/);
  });

  test("§8 an unhandled client-side exception shows the framework's client-side fallback", async ({ page }) => {
    await page.goto("./en/diagnostics/client-error");
    await page.getByTestId("throw-client-error").click();
    await expect(page.locator("h2")).toHaveText("Application error: a client-side exception has occurred (see the browser console for more information).");
  });

  test("§8 diagnostics are for superusers only: other users get the 404 page, visitors the sign-in page", async ({ browser }) => {
    cli("main", "createuser", "--email", "plain@example.com", "--password", "plain-password", "--no-input");
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto("./en/diagnostics/server-error");
    await expect(page).toHaveURL(/\/en\/sign-in\?next=/);
    await submitSignIn(page, "plain@example.com", "plain-password");
    await expect(page).toHaveURL(/\/en\/diagnostics\/server-error$/);
    await expect(page.getByTestId("not-found")).toBeVisible();
    const res = await page.goto("./en/diagnostics");
    expect(res?.status()).toBe(404);
    await context.close();
  });
});

test.describe("route-level error boundary", () => {
  test.use({ storageState: OWNER_STATE });

  test("an error inside the dashboard shows a helpful message, the digest and a retry, in the page shell", async ({ page }) => {
    await page.goto("./en/diagnostics");
    await page.getByRole("link", { name: "An error inside the dashboard", exact: true }).click();
    const panel = page.getByTestId("route-error");
    await expect(panel.getByRole("heading")).toHaveText("Something went wrong");
    await expect(panel).toContainText(/Reference: \S+/);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    // The retry asks the server again (a React Server Components request for the route), which fails again.
    const refetch = page.waitForRequest((r) => new URL(r.url()).pathname.endsWith("/en/diagnostics/route-error") && r.headers()["rsc"] === "1");
    await panel.getByRole("button", { name: "Try again" }).click();
    await refetch;
    await expect(panel.getByRole("button", { name: "Try again" })).toBeEnabled();
    await expect(panel.getByRole("heading")).toHaveText("Something went wrong");
  });

  test("the retry recovers from a passing failure: the page that failed once is shown", async ({ page }) => {
    await page.goto("./en/diagnostics");
    await page.getByRole("link", { name: /that passes/ }).click();
    const panel = page.getByTestId("route-error");
    await expect(panel.getByRole("heading")).toHaveText("Something went wrong");
    await expect(page).toHaveURL(/\/en\/diagnostics\/route-error\?once=[0-9a-f-]{36}$/);
    await panel.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("The page works again");
    await expect(page.getByTestId("route-error")).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  });
});
