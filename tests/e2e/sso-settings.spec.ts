// Single sign-on set in the instance settings (issue 20) on the main server, which has no FAULTLINE_OIDC_*: a
// superuser sets the tests' OpenID Connect provider (oidc-serve.ts), the sign-in page offers it at once, a first
// sign-in creates the account; the secret is never shown back; removed again, the button goes.
import { expect, test } from "@playwright/test";
import { freshClientAddress, OWNER_STATE } from "./helpers";
import { OIDC } from "./servers";

const NAME = "Acme Settings ID";

test("a superuser sets the provider in the instance settings; people sign in with it; removed, it is gone", async ({ browser }) => {
  const owner = await browser.newContext({ storageState: OWNER_STATE, baseURL: test.info().project.use.baseURL });
  const page = await owner.newPage();
  await page.goto("./en/instance/sso");
  const form = page.getByTestId("instance-sso-form");
  await form.getByLabel("Issuer URL").fill(OIDC.issuer);
  await form.getByLabel("Client id").fill(OIDC.mainClientId);
  await form.getByLabel("Name on the sign-in button").fill(NAME);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.locator('[data-field-error="clientSecret"], .form-error').first()).toBeVisible();
  await form.getByLabel("Client secret").fill(OIDC.mainClientSecret);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText("Saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("sso-configured")).toContainText(`…${OIDC.mainClientSecret.slice(-4)}`);
  expect(await page.content()).not.toContain(OIDC.mainClientSecret);

  const visitor = await browser.newContext({ baseURL: test.info().project.use.baseURL, extraHTTPHeaders: { "x-forwarded-for": freshClientAddress() } });
  const v = await visitor.newPage();
  await v.goto("./en/sign-in");
  await v.getByRole("button", { name: `Sign in with ${NAME}` }).click();
  await expect(v).toHaveURL(new RegExp(`^${OIDC.issuer}/`));
  await v.locator('input[name="login"]').fill("settings.person@example.org");
  await v.locator('input[name="password"]').fill("anything");
  await v.getByRole("button", { name: "Sign-in" }).click();
  await v.getByRole("button", { name: "Continue" }).click();
  await expect(v).toHaveURL(/\/en\/orgs$/);
  await expect(v.getByText("settings.person@example.org")).toBeVisible();
  await visitor.close();

  await page.goto("./en/instance/security");
  await expect(page.getByText(`set single sign-on to ${OIDC.issuer}`)).toBeVisible();
  await page.goto("./en/instance/sso");
  await page.getByTestId("instance-sso-remove-form").getByRole("button", { name: "Remove single sign-on" }).click();
  await expect(page.getByTestId("sso-configured")).toHaveCount(0);
  const after = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const a = await after.newPage();
  await a.goto("./en/sign-in");
  await expect(a.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  await expect(a.getByRole("button", { name: `Sign in with ${NAME}` })).toHaveCount(0);
  await after.close();
  await owner.close();
});
