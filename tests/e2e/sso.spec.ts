// Single sign-on (issue 20) in Chromium against the sso server (servers.mjs), signing in with a real OpenID Connect
// provider on loopback (oidc-serve.ts: oidc-provider): a first sign-in creates the account (and auto-joins the
// organization of its domain), a returning one finds it; an unverified e-mail creates nothing; a tampered state, an ID
// token with another nonce and an expired ID token sign nobody in; a password account is linked only after its
// password; "require SSO" refuses the password; two-factor still asks for its code; the callback answers hostile query
// strings with 400, never 500. The provider requires PKCE of every request (oidc-serve.ts), so each sign-in that
// succeeds used it.
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { base32Decode, totp } from "../helpers/totp";
import { freshClientAddress, submitSignIn } from "./helpers";
import { rawConnection } from "../helpers/raw-connection";
import { OIDC, SERVERS } from "./servers";

test.describe.configure({ mode: "serial" });

const OWNER = { name: "Sam Owner", email: "owner@acme.test", password: "sso owner password 1", organization: "Acme" };

async function fresh(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, extraHTTPHeaders: { "x-forwarded-for": freshClientAddress() } });
  return { context, page: await context.newPage() };
}

/** "Sign in with Acme ID", then the provider's own login and consent pages. */
async function ssoSignIn(page: Page, login: string) {
  await page.goto("./en/sign-in");
  await page.getByRole("button", { name: `Sign in with ${OIDC.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${OIDC.issuer}/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

async function signedOut(page: Page) {
  await page.goto("./en/orgs");
  await expect(page).toHaveURL(/\/en\/sign-in/);
}

test("setup: the owner's password account and organization; auto-join by domain; require SSO refused before the owner's own SSO", async ({ browser }) => {
  const { context, page } = await fresh(browser);
  await page.goto("./");
  await expect(page).toHaveURL(/\/en\/setup$/);
  await page.getByLabel("Your name").fill(OWNER.name);
  await page.getByLabel("E-mail").fill(OWNER.email);
  await page.getByLabel(/^Password/).fill(OWNER.password);
  await page.getByLabel("Organization name").fill(OWNER.organization);
  await page.getByRole("button", { name: "Create owner and sign in" }).click();
  await expect(page).toHaveURL(/\/en\/orgs\/acme$/);

  await page.goto("./en/orgs/acme/settings/general");
  const form = page.getByTestId("org-sso-form");
  await form.getByLabel("Auto-join domains").fill("acme.test\nnot a domain");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.locator('[data-field-error="autoJoinDomains.1"], .form-error').first()).toBeVisible();
  await form.getByLabel("Auto-join domains").fill("ACME.test");
  await form.getByLabel("Role of people who join automatically").selectOption("viewer");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText("Saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("org-sso-form").getByLabel("Auto-join domains")).toHaveValue("acme.test");

  // Requiring SSO before signing in with it oneself would lock the owner out: refused.
  await page.getByTestId("require-sso").check();
  await page.getByTestId("org-sso-form").getByRole("button", { name: "Save" }).click();
  await expect(
    page
      .getByTestId("org-sso-form")
      .getByText(/Sign in with single sign-on once yourself/)
      .first(),
  ).toBeVisible();

  // Instance settings → Single sign-on: the environment's provider, read-only; the client secret only by its end.
  await page.goto("./en/instance/sso");
  await expect(page.getByTestId("sso-env")).toContainText(OIDC.issuer);
  await expect(page.getByTestId("sso-env")).toContainText(`…${OIDC.clientSecret.slice(-4)}`);
  await expect(page.getByTestId("sso-callback-url")).toHaveText(/\/api\/auth\/callback\/sso$/);
  expect(await page.content()).not.toContain(OIDC.clientSecret);
  await context.close();
});

test("first sign-in creates the account and auto-joins the domain's organization as its role; a returning sign-in finds it", async ({ browser }) => {
  const first = await fresh(browser);
  await ssoSignIn(first.page, "new.person@acme.test");
  await expect(first.page).toHaveURL(/\/en\/orgs$/);
  await expect(first.page.getByTestId("org-list").getByRole("link", { name: /^Acme/ })).toBeVisible();
  // As the role the owner chose for auto-joins: a viewer's own row names the role (a manager's would hold a select).
  await first.page.goto("./en/orgs/acme/settings/members");
  const own = first.page.getByTestId("member-table").getByRole("row", { name: /new\.person@acme\.test/ });
  await expect(own.getByRole("cell").nth(1)).toHaveText("Viewer");
  await first.context.close();

  const again = await fresh(browser);
  await ssoSignIn(again.page, "new.person@acme.test");
  await expect(again.page).toHaveURL(/\/en\/orgs$/);
  await expect(again.page.getByTestId("org-list").locator("li")).toHaveCount(1);
  await again.context.close();
});

test("an e-mail the provider has not verified creates no account", async ({ browser }) => {
  const { context, page } = await fresh(browser);
  await ssoSignIn(page, "unverified@acme.test");
  await expect(page.getByTestId("sso-error")).toHaveAttribute("data-code", "email_not_verified");
  await expect(page.getByTestId("sso-error")).toContainText("has not verified this e-mail address");
  await signedOut(page);
  await context.close();
});

test("a tampered state signs nobody in", async ({ browser }) => {
  const { context, page } = await fresh(browser);
  // The state Faultline sent to the provider comes back altered (the provider hands back whatever it was given).
  await page.route(
    (url) => url.origin === OIDC.issuer && url.pathname === "/auth",
    async (route) => {
      const url = new URL(route.request().url());
      const state = url.searchParams.get("state") ?? "";
      expect(state.length).toBeGreaterThan(8);
      url.searchParams.set("state", `${state.slice(0, -4)}AAAA`);
      await route.continue({ url: url.toString() });
    },
  );
  await ssoSignIn(page, "new.person@acme.test");
  await expect(page.getByTestId("sso-error")).toBeVisible();
  await expect(page.getByTestId("sso-error")).toContainText("could not be completed");
  await signedOut(page);
  await context.close();
});

test("an ID token with another nonce signs nobody in", async ({ browser }) => {
  const { context, page } = await fresh(browser);
  // The provider is asked with an altered nonce, and signs it into its ID token: not the nonce this sign-in expects.
  await page.route(
    (url) => url.origin === OIDC.issuer && url.pathname === "/auth",
    async (route) => {
      const url = new URL(route.request().url());
      const nonce = url.searchParams.get("nonce") ?? "";
      expect(nonce.length).toBeGreaterThan(8);
      url.searchParams.set("nonce", `${nonce}x`);
      await route.continue({ url: url.toString() });
    },
  );
  await ssoSignIn(page, "new.person@acme.test");
  await expect(page.getByTestId("sso-error")).toHaveAttribute("data-code", "unable_to_get_user_info");
  await signedOut(page);
  await context.close();
});

test("an expired ID token signs nobody in", async ({ browser, request }) => {
  // The provider's clock runs an hour behind while it issues tokens: its ID token (10 minutes) expired 50 minutes ago.
  expect((await request.post(`${OIDC.issuer}/__test/clock-skew?seconds=3600`)).status()).toBe(204);
  try {
    const { context, page } = await fresh(browser);
    await ssoSignIn(page, "new.person@acme.test");
    await expect(page.getByTestId("sso-error")).toBeVisible();
    await expect(page.getByTestId("sso-error")).toHaveAttribute("data-code", "unable_to_get_user_info");
    await signedOut(page);
    await context.close();
  } finally {
    await request.post(`${OIDC.issuer}/__test/clock-skew?seconds=0`);
  }
});

test("an existing password account is linked only after its password, then signs in with SSO", async ({ browser }) => {
  const { context, page } = await fresh(browser);
  await ssoSignIn(page, OWNER.email);
  // Not linked by e-mail: the person is asked for the password of the account.
  await expect(page.getByTestId("sso-error")).toHaveAttribute("data-code", "account_not_linked");
  await signedOut(page);
  await page.goto("./en/sign-in/sso?error=account_not_linked");
  const form = page.getByTestId("sso-link-sign-in-form");
  await form.getByLabel("E-mail").fill(OWNER.email);
  await form.getByLabel("Password").fill("not the password");
  await form.getByRole("button", { name: "Sign in and link" }).click();
  await expect(form.getByRole("alert")).toContainText("not correct");
  await form.getByLabel("Password").fill(OWNER.password);
  await form.getByRole("button", { name: "Sign in and link" }).click();
  await expect(page).toHaveURL(/\/en\/sign-in\/sso\/link$/);
  await page.getByRole("button", { name: `Continue to ${OIDC.name}` }).click();
  // The provider remembers this browser's sign-in as the owner and the consent given: it answers at once.
  await expect(page).toHaveURL(/\/en\/account\?sso=linked$/);
  await context.close();

  const again = await fresh(browser);
  await ssoSignIn(again.page, OWNER.email);
  await expect(again.page).toHaveURL(/\/en\/orgs$/);
  await expect(again.page.getByTestId("org-list").getByRole("link", { name: /^Acme/ })).toBeVisible();

  // Linked, the owner may now require SSO of the organization.
  await again.page.goto("./en/orgs/acme/settings/general");
  await again.page.getByTestId("require-sso").check();
  await again.page.getByTestId("org-sso-form").getByRole("button", { name: "Save" }).click();
  await expect(again.page.getByTestId("org-sso-form").getByText("Saved")).toBeVisible();
  await again.page.goto("./en/orgs/acme/settings/audit");
  await expect(again.page.getByText("required single sign-on of every member")).toBeVisible();
  await again.context.close();
});

test("require SSO: the members' password sign-in is refused, single sign-on still works", async ({ browser }) => {
  const { context, page } = await fresh(browser);
  await page.goto("./en/sign-in");
  await submitSignIn(page, OWNER.email, OWNER.password);
  await expect(page.getByTestId("sign-in-form").getByRole("alert")).toContainText(`Your organization requires single sign-on: use “Sign in with ${OIDC.name}”`);
  await signedOut(page);
  await ssoSignIn(page, OWNER.email);
  await expect(page).toHaveURL(/\/en\/orgs$/);
  await context.close();
});

test("two-factor still asks for its code after a single sign-on", async ({ browser }) => {
  const { context, page } = await fresh(browser);
  await ssoSignIn(page, OWNER.email);
  await expect(page).toHaveURL(/\/en\/orgs$/);
  await page.goto("./en/account/two-factor");
  await page.getByLabel("Current password").fill(OWNER.password);
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const key = base32Decode((await page.getByTestId("two-factor-secret").innerText()).trim());
  const confirm = page.getByTestId("two-factor-confirm-form");
  await confirm.getByLabel("Code from the app").fill(totp(key));
  await confirm.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expect(page).toHaveURL(/\/en\/account\/two-factor\?done=enabled/);
  await context.close();

  const again = await fresh(browser);
  await ssoSignIn(again.page, OWNER.email);
  // The provider's answer alone is not a session: the code page, then where the sign-in was going.
  await expect(again.page).toHaveURL(/\/en\/sign-in\/two-factor\?next=%2Fen%2Forgs$/);
  await signedOutKeepingChallenge(again.page);
  const codeForm = again.page.getByTestId("two-factor-code-form");
  await codeForm.getByLabel("Code", { exact: true }).fill(totp(key, undefined, { step: 1 }));
  await codeForm.getByRole("button", { name: "Verify" }).click();
  await expect(again.page).toHaveURL(/\/en\/orgs$/);
  await again.context.close();
});

/** No session yet while the code is pending (the orgs page sends to sign-in), and the code page is still there. */
async function signedOutKeepingChallenge(page: Page) {
  const url = page.url();
  await page.goto("./en/orgs");
  await expect(page).toHaveURL(/\/en\/sign-in/);
  await page.goto(url);
}

test("the callback answers garbage, oversized and NUL parameters with 400, never 500", async ({ request }) => {
  const cases = [
    "state=%00abc&code=x",
    `state=${"a".repeat(5000)}&code=x`,
    `code=${"c".repeat(3000)}&state=x`,
    "state=a&state=b&code=x",
    "state=ok&code=%01%02",
    "error=%00&state=x",
    "state=%ED%A0%80&code=x",
  ];
  for (const query of cases) {
    const res = await request.get(`./api/auth/callback/sso?${query}`, { maxRedirects: 0 });
    expect(res.status(), query.slice(0, 60)).toBe(400);
  }
  // Well-formed but unknown: sent to the error page, never a 500.
  for (const query of ["state=unknownstate&code=abc", "code=abc", "", "error=access_denied&state=nope"]) {
    const res = await request.get(`./api/auth/callback/sso?${query}`, { maxRedirects: 0 });
    expect(res.status(), query).toBeGreaterThanOrEqual(300);
    expect(res.status(), query).toBeLessThan(500);
  }
});

test("a posted callback larger than any form is a 413 while it is still being sent, not read whole into memory", async () => {
  const size = 64 * 1024 * 1024;
  const c = await rawConnection(SERVERS.sso.port);
  await c.write(
    `POST /api/auth/callback/sso HTTP/1.1\r\nHost: 127.0.0.1:${SERVERS.sso.port}\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${size}\r\n\r\n`,
  );
  const block = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  // At most an eighth of the body: the answer comes long before the rest (it came after all 64 MB had been read).
  for (; sent < size / 8 && !c.answered() && !c.errored(); sent += block.length) await c.write(block);
  await expect.poll(() => c.answered(), { timeout: 10_000 }).toBe(true);
  await c.end();
  expect(c.errored()).toBeNull();
  expect(c.received()).toMatch(/^HTTP\/1\.1 413 /);
  expect(c.received()).toContain('"detail":"Request body is larger than 16384 bytes"');
});
