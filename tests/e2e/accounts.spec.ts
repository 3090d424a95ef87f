// Who makes accounts and who joins organizations, in Chromium against the production build. Any signed-in user can
// create an organization; that must not let them make an account for someone else's address, pull an existing
// account in, or learn whether an address has an account. Accounts come from superusers (instance settings, checked
// on the server) and from people accepting an invitation to their own address.
import { expect, type Page, test } from "@playwright/test";
import { cli, freshClientAddress, OWNER_STATE, screenshot, signIn, submitSignIn } from "./helpers";
import { unique } from "./ingest-helpers";

const PASSWORD = "plain-password";

async function plainUser(prefix: string): Promise<string> {
  const email = `${unique(prefix)}@example.com`;
  cli("main", "createuser", "--email", email, "--password", PASSWORD, "--no-input");
  return email;
}

/** Invites `email` on the members page the page shows; returns what the form said and the link. */
async function invite(page: Page, email: string, role = "member"): Promise<{ said: string; link: string }> {
  const form = page.getByTestId("create-invite-form");
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Invite" }).click();
  await expect(form.getByRole("status")).toContainText(email);
  return { said: (await form.getByRole("status").innerText()).trim(), link: (await form.getByTestId("result-link").innerText()).trim() };
}

test.describe("accounts and invitations", () => {
  test("hostile input #12: a user's own organization can neither make an account nor take one in, and invites answer alike", async ({ browser }) => {
    const mallory = await plainUser("mallory");
    const victim = await plainUser("victim");
    const fresh = `${unique("fresh")}@example.com`;
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await signIn(page, mallory, PASSWORD);
    await expect(page).toHaveURL(/\/en\/orgs$/);
    const org = unique("mallory-org");
    await page.getByTestId("create-org-form").getByLabel("Name").fill(org);
    await page.getByTestId("create-org-form").getByRole("button").click();
    await expect(page).toHaveURL(new RegExp(`/en/orgs/${org}$`));
    await page.goto(`./en/orgs/${org}/settings/members`);
    await expect(page.getByTestId("add-member-form")).toHaveCount(0);
    await expect(page.getByTestId("create-invite-form").getByLabel("Password")).toHaveCount(0);

    const toVictim = await invite(page, victim);
    const toFresh = await invite(page, fresh);
    expect(toVictim.said.replace(victim, "ADDRESS")).toBe(toFresh.said.replace(fresh, "ADDRESS"));
    await page.reload();
    await expect(page.getByTestId("member-table").locator("tbody tr")).toHaveCount(1);
    await expect(page.getByTestId("invitation-table")).toContainText(victim);
    await expect(page.getByTestId("invitation-table")).toContainText(fresh);
    await screenshot(page, "org-members-invitations");

    // Mallory opens the victim's link herself: signed in, it is not hers to accept.
    await page.goto(toVictim.link);
    await expect(page.getByTestId("invite-other-address")).toBeVisible();
    await expect(page.getByTestId("accept-invite-form")).toHaveCount(0);
    await context.close();

    // Signed out, with the victim's link and a password of her choosing: nothing joins and nothing changes.
    const guest = await browser.newContext({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": freshClientAddress() } });
    const other = await guest.newPage();
    await other.goto(toVictim.link);
    await other.getByTestId("invite-join-form").getByLabel("Password").fill("mallory-chose-this");
    await other.getByTestId("invite-join-form").getByRole("button", { name: "Join" }).click();
    await expect(other.getByTestId("invite-join-form").getByRole("alert")).toHaveText("The e-mail or password is not correct.");
    await guest.close();

    // The victim's account and password are untouched, and it belongs to no organization of Mallory's.
    const victimContext = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const victimPage = await victimContext.newPage();
    await signIn(victimPage, victim, PASSWORD);
    await expect(victimPage).toHaveURL(/\/en\/orgs$/);
    await expect(victimPage.getByTestId("org-list")).not.toContainText(org);
    // With her own link, signed in as herself, she joins.
    await victimPage.goto(toVictim.link);
    await victimPage.getByTestId("accept-invite-form").getByRole("button", { name: "Join the organization" }).click();
    await expect(victimPage).toHaveURL(new RegExp(`/en/orgs/${org}$`));
    await victimContext.close();

    // No account was made for the address without one.
    const nobody = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const signInPage = await nobody.newPage();
    await signIn(signInPage, fresh, PASSWORD);
    await expect(signInPage.getByTestId("sign-in-form").getByRole("alert")).toHaveText("The e-mail or password is not correct.");
    await nobody.close();
  });

  test("hostile input #12: instance settings are a superuser's alone, and the server refuses a forged request from anyone else", async ({ browser }) => {
    const owner = await browser.newContext({ storageState: OWNER_STATE });
    const admin = await owner.newPage();
    await admin.goto("./en/instance/users");
    await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Instance settings: accounts");
    const html = await (await admin.request.get("./en/instance/users")).text();
    const made = `${unique("made")}@example.com`;
    const form = admin.getByTestId("create-account-form");
    await form.getByLabel("E-mail").fill(made);
    await form.getByLabel("Password (at least 8 characters)").fill("made-password");
    await form.getByRole("button", { name: "Create account" }).click();
    await expect(form.getByRole("status")).toHaveText(`Account ${made} created.`);
    await expect(admin.getByTestId("account-table")).toContainText(made);
    await screenshot(admin, "instance-users");
    await owner.close();

    const plain = await plainUser("plain");
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await signIn(page, plain, PASSWORD);
    await expect(page).toHaveURL(/\/en\/orgs$/);
    await expect(page.getByRole("link", { name: "Instance settings" })).toHaveCount(0);
    const res = await page.goto("./en/instance/users");
    expect(res?.status()).toBe(404);
    // A forged client: the superuser's page, served to the plain user's browser, posts its server action with the
    // plain user's session. The server decides, not the page.
    await page.route("**/en/instance/users", (route) =>
      route.request().method() === "GET" ? route.fulfill({ status: 200, contentType: "text/html", body: html }) : route.fallback(),
    );
    await page.goto("./en/instance/users");
    const forged = `${unique("forged")}@example.com`;
    const forgedForm = page.getByTestId("create-account-form");
    await forgedForm.getByLabel("E-mail").fill(forged);
    await forgedForm.getByLabel("Password (at least 8 characters)").fill("forged-password");
    await forgedForm.getByRole("checkbox", { name: /Superuser/ }).check();
    await forgedForm.getByRole("button", { name: "Create account" }).click();
    await expect(forgedForm.getByRole("alert")).toHaveText("Only superusers can manage accounts");
    await context.close();

    const check = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const checkPage = await check.newPage();
    await signIn(checkPage, made, "made-password");
    await expect(checkPage).toHaveURL(/\/en\/orgs$/);
    await check.clearCookies();
    await checkPage.goto("./en/sign-in");
    await submitSignIn(checkPage, forged, "forged-password");
    await expect(checkPage.getByTestId("sign-in-form").getByRole("alert")).toHaveText("The e-mail or password is not correct.");
    await check.close();
  });
});
