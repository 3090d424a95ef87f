// Issue 17's mail in the browser, against the main build mailing through a real SMTP server (smtp-serve.ts): a
// forgotten password reset through the mailed link (once), the invitation mailed from the members page, and the
// instance settings' test e-mail.
import { expect, type Page, test } from "@playwright/test";
import { cli, freshClientAddress, OWNER_STATE, signIn } from "./helpers";
import { mailsTo, waitForMail } from "./mail-helpers";
import { SERVERS, SMTP } from "./servers";

const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

async function askForReset(page: Page, email: string, locale = "en"): Promise<void> {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": freshClientAddress() });
  await page.goto(`./${locale}/sign-in`);
  await page.getByRole("link", { name: locale === "de" ? "Passwort vergessen?" : "Forgot your password?" }).click();
  await expect(page).toHaveURL(new RegExp(`/${locale}/forgot-password$`));
  const form = page.getByTestId("forgot-password-form");
  await form.getByLabel(locale === "de" ? "E-Mail" : "E-mail").fill(email);
  await form.getByRole("button").click();
  await expect(form.getByRole("status")).toBeVisible();
}

test.describe("issue 17 mail", () => {
  test("issue 17 mail: a forgotten password is reset through the mailed link, which works once", async ({ browser }) => {
    const email = `${unique("forgetful")}@example.com`;
    cli("main", "createuser", "--email", email, "--password", "old-password-1", "--no-input");
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();

    await askForReset(page, email);
    await expect(page.getByTestId("forgot-password-form").getByRole("status")).toHaveText(
      "If an account has this address, a link to reset its password is on its way. Check your inbox (and spam folder).",
    );
    const mail = await waitForMail(email);
    expect(mail.subject).toBe("Reset your Faultline password");
    expect(mail.from).toBe(`"Faultline" <faultline@example.com>`);
    expect(mail.user).toBe(SMTP.user);
    const link = new RegExp(`${SERVERS.main.url}/en/reset-password\\?token=[A-Za-z0-9_-]+`).exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();
    expect(mail.html).toContain(`href="${link}"`);

    await page.goto(link!);
    const form = page.getByTestId("reset-password-form");
    await form.getByLabel("New password", { exact: true }).fill("brand-new-password-2");
    await form.getByLabel("New password again").fill("something-else-22");
    await form.getByRole("button", { name: "Set the new password" }).click();
    await expect(page.locator('[data-field-error="confirm"]')).toHaveText("The passwords do not match");
    await form.getByLabel("New password again").fill("brand-new-password-2");
    await form.getByRole("button", { name: "Set the new password" }).click();
    await expect(page).toHaveURL(/\/en\/sign-in\?reset=done$/);
    await expect(page.getByRole("status")).toHaveText("Your password is changed. Sign in with it.");

    await signIn(page, email, "brand-new-password-2");
    await expect(page).toHaveURL(/\/en\/orgs$/);

    // The same link a second time: refused.
    await context.clearCookies();
    await page.goto(link!);
    await page.getByTestId("reset-password-form").getByLabel("New password", { exact: true }).fill("third-password-33");
    await page.getByTestId("reset-password-form").getByLabel("New password again").fill("third-password-33");
    await page.getByTestId("reset-password-form").getByRole("button").click();
    await expect(page.getByTestId("reset-password-form").getByRole("alert")).toHaveText(
      "This link is not valid: it was used already or has expired. Ask for a new one.",
    );
    await context.close();
  });

  test("issue 17 mail: asking for an address without an account looks the same and sends nothing; German asks get German mail", async ({ browser }) => {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const page = await context.newPage();
    const nobody = `${unique("nobody")}@example.com`;
    await askForReset(page, nobody);
    const said = await page.getByTestId("forgot-password-form").getByRole("status").innerText();

    const email = `${unique("vergesslich")}@example.com`;
    cli("main", "createuser", "--email", email, "--password", "old-password-1", "--no-input");
    await askForReset(page, email, "de");
    await expect(page.getByTestId("forgot-password-form").getByRole("status")).toContainText("Falls ein Konto mit dieser Adresse existiert");
    await askForReset(page, email);
    expect(await page.getByTestId("forgot-password-form").getByRole("status").innerText()).toBe(said);
    expect((await waitForMail(email)).subject).toBe("Dein Faultline-Passwort zurücksetzen");
    expect((await waitForMail(email, 2)).subject).toBe("Reset your Faultline password");
    expect(mailsTo(nobody)).toEqual([]);
    await context.close();
  });

  test.describe("signed in as the owner", () => {
    test.use({ storageState: OWNER_STATE });

    test("issue 17 mail: an invitation made on the members page is mailed with its link", async ({ page }) => {
      const email = `${unique("invitee")}@example.com`;
      await page.goto("./en/orgs/acme/settings/members");
      const form = page.getByTestId("create-invite-form");
      await form.getByLabel("E-mail").fill(email);
      await form.getByRole("button", { name: "Invite" }).click();
      await expect(form.getByTestId("form-notice")).toHaveText(`The invitation was sent by e-mail to ${email}.`);
      const link = (await form.getByTestId("result-link").innerText()).trim();
      const mail = await waitForMail(email);
      expect(mail.subject).toBe("Olivia Owner invites you to Acme on Faultline");
      expect(mail.text).toContain(link);
    });

    test("issue 17 mail: the instance settings show the mail setup without the password and send a test e-mail", async ({ page }) => {
      await page.goto("./en/instance/users");
      await page.getByRole("link", { name: "E-mail" }).click();
      await expect(page).toHaveURL(/\/en\/instance\/mail$/);
      const settings = page.getByTestId("mail-settings");
      await expect(settings).toContainText(`127.0.0.1:${SMTP.port}`);
      await expect(settings).toContainText("Faultline <faultline@example.com>");
      expect(await page.content()).not.toContain(SMTP.password);
      const to = `${unique("check")}@example.com`;
      const form = page.getByTestId("test-mail-form");
      await form.getByLabel("To").fill(to);
      await form.getByRole("button", { name: "Send test e-mail" }).click();
      await expect(form.getByRole("status")).toContainText("The SMTP server accepted the message: 250");
      expect((await waitForMail(to)).subject).toBe("Faultline test e-mail");

      await form.getByLabel("To").fill("a@example.com\r\nBcc: victim@example.com");
      await form.getByRole("button", { name: "Send test e-mail" }).click();
      await expect(form.getByRole("alert")).toBeVisible();
      expect(mailsTo("victim@example.com")).toEqual([]);
    });
  });
});
