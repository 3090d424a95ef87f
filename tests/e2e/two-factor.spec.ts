// Issue 20, two-factor sign-in, against a production build in Chromium: a person enrols from the account page (the
// test reads the secret the page shows and computes the code itself, RFC 6238 — tests/helpers/totp.ts), signs out,
// signs in with a code, then with a recovery code (which then works no more); an organization that requires
// two-factor shows a member without it only the enrolment page, and its API answers that member 403 with the reason.
// The pages are axe-clean in English and German.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { base32Decode, totp } from "../helpers/totp";
import { seriousViolations } from "./axe";
import { cli, freshClientAddress, signIn } from "./helpers";
import { expectJson, unique } from "./ingest-helpers";
import { SERVERS } from "./servers";

const PASSWORD = "two-factor-password";
const GUEST = { cookies: [], origins: [] };

async function guestPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ storageState: GUEST });
  return context.newPage();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/en\/sign-in/);
}

/** Password, then the second step with `code` (a TOTP) or a recovery code. */
async function signInWithSecondFactor(page: Page, email: string, code: { totp: string } | { recovery: string }): Promise<void> {
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/en\/sign-in\/two-factor/);
  const form = page.getByTestId("totp" in code ? "two-factor-code-form" : "two-factor-recovery-form");
  await form.getByLabel("totp" in code ? "Code" : "Recovery code", { exact: true }).fill("totp" in code ? code.totp : code.recovery);
  await form.getByRole("button").click();
}

test.describe("issue 20 two-factor sign-in", () => {
  test("enrol from the account page, sign in with a code and with a recovery code once; an organization requiring it shows a member without it only the enrolment page, and its API answers 403", async ({
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    const alice = `${unique("alice")}@example.com`;
    const bob = `${unique("bob")}@example.com`;
    for (const email of [alice, bob]) cli("main", "createuser", "--email", email, "--password", PASSWORD, "--no-input");
    const a11y: string[] = [];

    // Enrolment: the password, then the QR code, the secret and the recovery codes; a first code turns it on.
    const page = await guestPage(browser);
    await signIn(page, alice, PASSWORD);
    await expect(page).not.toHaveURL(/sign-in/);
    await page.goto("/en/account/two-factor");
    await expect(page.getByRole("heading", { level: 1, name: "Two-factor authentication" })).toBeVisible();
    await expect(page.getByTestId("two-factor-status")).toHaveText("Two-factor authentication is off.");
    a11y.push(...(await seriousViolations(page, "a11y-two-factor-account-en")));
    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
    await expect(page.getByTestId("two-factor-qr").locator("svg")).toBeVisible();
    const secret = (await page.getByTestId("two-factor-secret").innerText()).trim();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const recovery = (await page.getByTestId("two-factor-recovery-codes").locator("li").allInnerTexts()).map((c) => c.trim());
    expect(recovery).toHaveLength(10);
    a11y.push(...(await seriousViolations(page, "a11y-two-factor-enrol-en")));
    const key = base32Decode(secret);
    const confirm = page.getByTestId("two-factor-confirm-form");
    await confirm.getByLabel("Code from the app").fill(totp(key));
    await confirm.getByRole("button", { name: "Turn on two-factor authentication" }).click();
    await expect(page).toHaveURL(/\/en\/account\/two-factor\?done=enabled/);
    await expect(page.getByTestId("two-factor-status")).toContainText("is on");
    await signOut(page);

    // Sign-in: the password alone is not enough; a wrong code is refused; the next step's code (never used) signs in.
    await signIn(page, alice, PASSWORD);
    await expect(page).toHaveURL(/\/en\/sign-in\/two-factor/);
    a11y.push(...(await seriousViolations(page, "a11y-two-factor-sign-in-en")));
    const codeForm = page.getByTestId("two-factor-code-form");
    const valid = new Set([-2, -1, 0, 1, 2].map((step) => totp(key, undefined, { step })));
    const wrong = ["000000", "111111", "222222"].find((c) => !valid.has(c))!;
    await codeForm.getByLabel("Code", { exact: true }).fill(wrong);
    await codeForm.getByRole("button", { name: "Verify" }).click();
    await expect(codeForm.getByRole("alert")).toHaveText("The code is not correct.");
    await codeForm.getByLabel("Code", { exact: true }).fill(totp(key, undefined, { step: 1 }));
    await codeForm.getByRole("button", { name: "Verify" }).click();
    await expect(page).not.toHaveURL(/sign-in/);
    await page.goto("/en/account/two-factor");
    await expect(page.getByTestId("two-factor-status")).toContainText("is on");
    await signOut(page);

    // A recovery code signs in once.
    await signInWithSecondFactor(page, alice, { recovery: recovery[0]! });
    await expect(page).not.toHaveURL(/sign-in/);
    await signOut(page);
    await signInWithSecondFactor(page, alice, { recovery: recovery[0]! });
    await expect(page.getByTestId("two-factor-recovery-form").getByRole("alert")).toHaveText("The code is not correct.");
    await expect(page).toHaveURL(/\/en\/sign-in\/two-factor/);
    await page.getByTestId("two-factor-recovery-form").getByLabel("Recovery code").fill(recovery[1]!);
    await page.getByTestId("two-factor-recovery-form").getByRole("button").click();
    await expect(page).not.toHaveURL(/sign-in/);

    // Alice's organization; Bob joins it by invitation (without two-factor).
    const aliceToken = cli("main", "createtoken", "--email", alice);
    const org = await expectJson<{ slug: string }>(
      await request.post(`${SERVERS.main.url}/api/0/organizations/`, { headers: { authorization: `Bearer ${aliceToken}` }, data: { name: unique("Secure") } }),
      201,
      "create organization",
    );
    await page.goto(`/en/orgs/${org.slug}/settings/members`);
    const invite = page.getByTestId("create-invite-form");
    await invite.getByLabel("E-mail").fill(bob);
    await invite.getByLabel("Role").selectOption("member");
    await invite.getByRole("button", { name: "Invite" }).click();
    const link = (await invite.getByTestId("result-link").innerText()).trim();
    const bobPage = await guestPage(browser);
    await bobPage.setExtraHTTPHeaders({ "x-forwarded-for": freshClientAddress() });
    await bobPage.goto(link);
    await bobPage.getByTestId("invite-join-form").getByLabel("Password").fill(PASSWORD);
    await bobPage.getByTestId("invite-join-form").getByRole("button", { name: "Join" }).click();
    await expect(bobPage).toHaveURL(new RegExp(`/en/orgs/${org.slug}$`));
    const bobToken = cli("main", "createtoken", "--email", bob);
    await expectJson(
      await request.get(`${SERVERS.main.url}/api/0/organizations/${org.slug}/`, { headers: { authorization: `Bearer ${bobToken}` } }),
      200,
      "before the requirement",
    );

    // The owner requires two-factor (organization settings).
    await page.goto(`/en/orgs/${org.slug}/settings`);
    const requireForm = page.getByTestId("org-require-two-factor-form");
    await requireForm.getByLabel("Require two-factor authentication of every member").check();
    await requireForm.getByRole("button", { name: "Save" }).click();
    await expect(requireForm.getByRole("status")).toHaveText("Saved.");

    // Bob sees only the enrolment page of that organization, whichever of its pages he opens, in en and de.
    for (const path of ["", "/settings/members", "/issues"]) {
      await bobPage.goto(`/en/orgs/${org.slug}${path}`);
      await expect(bobPage).toHaveURL(new RegExp(`/en/account/two-factor\\?required=${org.slug}$`));
    }
    await expect(bobPage.getByTestId("two-factor-required")).toContainText(`“${org.slug}” requires two-factor authentication`);
    a11y.push(...(await seriousViolations(bobPage, "a11y-two-factor-required-en")));
    await bobPage.goto(`/de/orgs/${org.slug}`);
    await expect(bobPage).toHaveURL(new RegExp(`/de/account/two-factor\\?required=${org.slug}$`));
    await expect(bobPage.getByRole("heading", { level: 1, name: "Zwei-Faktor-Authentifizierung" })).toBeVisible();
    a11y.push(...(await seriousViolations(bobPage, "a11y-two-factor-required-de")));

    // Its API refuses Bob's token with the reason; the owner's still works.
    for (const path of [`/organizations/${org.slug}/`, `/organizations/${org.slug}/projects/`]) {
      const refused = await expectJson<{ detail: string }>(
        await request.get(`${SERVERS.main.url}/api/0${path}`, { headers: { authorization: `Bearer ${bobToken}` } }),
        403,
        `Bob: ${path}`,
      );
      expect(refused.detail).toMatch(/requires two-factor authentication/);
    }
    await expectJson(
      await request.get(`${SERVERS.main.url}/api/0/organizations/${org.slug}/`, { headers: { authorization: `Bearer ${aliceToken}` } }),
      200,
      "the owner, enrolled",
    );

    // The sign-in's second step in German.
    const guest = await guestPage(browser);
    await guest.goto("/de/sign-in/two-factor");
    await expect(guest.getByRole("heading", { level: 1, name: "Zwei-Faktor-Authentifizierung" })).toBeVisible();
    a11y.push(...(await seriousViolations(guest, "a11y-two-factor-sign-in-de")));
    expect(a11y).toEqual([]);
  });
});
