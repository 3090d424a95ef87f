// The dashboard as people use it: members and roles, teams, projects, DSN keys, API tokens, password change,
// in English and German. Every mutation here is a server action; authorization is checked on the server.
import { expect, test } from "@playwright/test";
import { api, cli, freshClientAddress, OWNER_STATE, submitSignIn } from "./helpers";

test.describe("dashboard", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    const a = api(request);
    // Idempotent: Playwright runs beforeAll again in a new worker after a failure.
    await a.post("/organizations/acme/teams/", { slug: "apps" });
    expect([201, 409]).toContain((await a.post("/teams/acme/apps/projects/", { name: "Checkout", platform: "javascript" })).status());
  });

  test("members: an owner invites a new viewer, who makes their account through the link and can read but not change anything", async ({
    page,
    browser,
    request,
  }) => {
    await page.goto("./en/orgs/acme/settings/members");
    const form = page.getByTestId("create-invite-form");
    await form.getByLabel("E-mail").fill("viewer@example.com");
    await form.getByLabel("Role").selectOption("viewer");
    await form.getByRole("button", { name: "Invite" }).click();
    await expect(form.getByRole("status")).toHaveText("viewer@example.com is invited. Send them this link; it is not shown again:");
    const link = (await form.getByTestId("result-link").innerText()).trim();
    await expect(page.getByTestId("member-table")).not.toContainText("viewer@example.com");

    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const viewer = await context.newPage();
    await viewer.setExtraHTTPHeaders({ "x-forwarded-for": freshClientAddress() });
    await viewer.goto(link);
    await expect(viewer.getByText("This invitation is for viewer@example.com, to join as Viewer.")).toBeVisible();
    const join = viewer.getByTestId("invite-join-form");
    await expect(join.getByLabel("E-mail")).toHaveValue("viewer@example.com");
    await join.getByLabel("Password").fill("viewer-password");
    await join.getByRole("button", { name: "Join" }).click();
    await expect(viewer).toHaveURL(/\/en\/orgs\/acme$/);
    await expect(viewer.getByTestId("create-project-form")).toHaveCount(0);
    await viewer.goto("./en/orgs/acme/settings/members");
    await expect(viewer.getByTestId("create-invite-form")).toHaveCount(0);
    await context.close();

    // The same rules hold on the API, whatever the UI shows.
    const v = api(request, cli("main", "createtoken", "--email", "viewer@example.com"));
    expect((await v.get("/projects/acme/checkout/")).status()).toBe(200);
    for (const r of [
      await v.put("/projects/acme/checkout/", { name: "x" }),
      await v.post("/projects/acme/checkout/keys/", {}),
      await v.post("/organizations/acme/teams/", { slug: "nope" }),
      await v.delete("/organizations/acme/"),
    ]) {
      expect(r.status()).toBe(403);
      expect((await r.json()).detail).toBe("You do not have permission to do this");
    }
  });

  test("roles: the last owner cannot be demoted, and the message says why", async ({ page }) => {
    await page.goto("./en/orgs/acme/settings/members");
    const ownerRow = page.getByTestId("member-table").getByRole("row", { name: /owner@example.com/ });
    await ownerRow.getByLabel("Role").selectOption("admin");
    await ownerRow.getByRole("button", { name: "Change role" }).click();
    await expect(ownerRow.getByRole("alert")).toHaveText("An organization needs at least one owner");
  });

  test("keys: create, rename, disable and revoke DSN keys", async ({ page }) => {
    await page.goto("./en/orgs/acme/projects/checkout/settings/keys");
    const create = page.getByTestId("create-key-form");
    await create.getByLabel("Name").fill("Backend");
    await create.getByRole("button", { name: "Create key" }).click();
    const card = page.getByTestId("key-list").locator("li").filter({ hasText: "Backend" });
    await expect(card).toBeVisible();
    await card.getByLabel("Name").fill("Backend jobs");
    await card.getByRole("button", { name: "Rename" }).click();
    const renamed = page.getByTestId("key-list").locator("li").filter({ hasText: "Backend jobs" });
    await expect(renamed.getByRole("heading")).toHaveText("Backend jobs");
    await renamed.getByRole("button", { name: "Disable" }).click();
    await expect(renamed.getByRole("heading")).toContainText("disabled");
    await renamed.getByRole("button", { name: "Revoke" }).click();
    await expect(page.getByTestId("key-list")).not.toContainText("Backend jobs");
  });

  test("API tokens: a new token is shown once and works with the API", async ({ page, request }) => {
    await page.goto("./en/account/tokens");
    const form = page.getByTestId("create-token-form");
    await form.getByLabel("Name").fill("deploys");
    await form.getByRole("checkbox", { name: "org:read" }).check();
    await form.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("result-token").textContent())?.trim() ?? "";
    expect(token).toMatch(/^sntryu_[0-9a-f]{64}$/);
    expect((await api(request, token).get("/organizations/acme/")).status()).toBe(200);
    await page.reload();
    await expect(page.getByTestId("token-table")).toContainText("deploys");
    await expect(page.getByTestId("token-table")).not.toContainText(token);
    await page
      .getByTestId("token-table")
      .getByRole("row", { name: /deploys/ })
      .getByRole("button", { name: "Revoke" })
      .click();
    await expect(page.getByTestId("token-table")).not.toContainText("deploys");
    expect((await api(request, token).get("/organizations/acme/")).status()).toBe(401);
  });

  test("password change: wrong current password is refused inline; the new one works", async ({ browser }) => {
    cli("main", "createuser", "--email", "changer@example.com", "--password", "first-password", "--no-input");
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    await page.goto("./en/account");
    await submitSignIn(page, "changer@example.com", "first-password");
    const form = page.getByTestId("password-form");
    await form.getByLabel("Current password").fill("not-it");
    await form.getByLabel("New password", { exact: true }).fill("second-password");
    await form.getByLabel("Repeat new password").fill("second-password");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.locator('[data-field-error="currentPassword"]')).toHaveText("The current password is not correct.");
    await form.getByLabel("Current password").fill("first-password");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByRole("status")).toHaveText("Your password was changed. Other sessions were signed out.");
    await page.getByRole("button", { name: "Sign out" }).click();
    await submitSignIn(page, "changer@example.com", "second-password");
    await expect(page).toHaveURL(/\/en\/orgs$/);
    await context.close();
  });

  test("German: forms and their validation messages are translated", async ({ page }) => {
    await page.goto("./de/orgs");
    const form = page.getByTestId("create-org-form");
    await form.getByLabel("Slug (optional)").fill("Kein Slug!");
    await form.getByRole("button", { name: "Organisation erstellen" }).click();
    await expect(form.getByRole("alert")).toHaveText("Bitte korrigiere die markierten Felder.");
    await expect(form.locator('[data-field-error="name"]')).toHaveText("Gib einen Namen ein");
    await expect(form.locator('[data-field-error="slug"]')).toHaveText(
      "Verwende Kleinbuchstaben, Ziffern, Binde- und Unterstriche; beginne mit einem Buchstaben oder einer Ziffer",
    );
    await form.getByLabel("Name").fill("Beispiel GmbH");
    await form.getByLabel("Slug (optional)").fill("");
    await form.getByRole("button", { name: "Organisation erstellen" }).click();
    await expect(page).toHaveURL(/\/de\/orgs\/beispiel-gmbh$/);
    await expect(page.getByRole("heading", { level: 1, name: "Projekte" })).toBeVisible();
  });

  test("teams: create, join and leave", async ({ page }) => {
    await page.goto("./en/orgs/acme/settings/teams");
    await page.getByLabel("Team slug").fill("mobile");
    await page.getByRole("button", { name: "Create team" }).click();
    const row = page.getByTestId("team-table").getByRole("row", { name: /#mobile/ });
    await expect(row).toContainText("1 member");
    await row.getByRole("button", { name: "Leave" }).click();
    await expect(row).toContainText("0 members");
    await row.getByRole("button", { name: "Join" }).click();
    await expect(row).toContainText("1 member");
  });
});
