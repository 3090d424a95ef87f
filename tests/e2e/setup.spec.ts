// First run: with no user, the web UI shows a setup page that creates the owner; afterwards it is gone.
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./axe";
import { OWNER_STATE } from "./helpers";
import { OWNER } from "./servers";

test("first run: / leads to setup, which creates the owner and the first organization and signs in", async ({ page, context }) => {
  await page.goto("./");
  await expect(page).toHaveURL(/\/en\/setup$/);
  // The only run that sees the setup page: axe-core checks it here (a11y.spec.ts checks the other screens).
  const found = await seriousViolations(page, "a11y-setup");
  expect(found, `axe-core found serious or critical violations:\n\n${found.join("\n\n")}`).toEqual([]);
  await page.getByRole("button", { name: "Create owner and sign in" }).click();
  await expect(page.locator('[data-field-error="email"]')).toBeVisible();
  await page.getByLabel("Your name").fill(OWNER.name);
  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel(/^Password/).fill("short");
  await page.getByLabel("Organization name").fill(OWNER.organization);
  await page.getByRole("button", { name: "Create owner and sign in" }).click();
  await expect(page.locator('[data-field-error="password"]')).toHaveText("At least 8 characters");
  await page.getByLabel(/^Password/).fill(OWNER.password);
  await page.getByRole("button", { name: "Create owner and sign in" }).click();
  await expect(page).toHaveURL(/\/en\/orgs\/acme$/);
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();

  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name.includes("session_token"));
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
  await context.storageState({ path: OWNER_STATE });

  // The setup page is gone once a user exists.
  await page.goto("./en/setup");
  await expect(page).toHaveURL(/\/en\/orgs$/);
});
