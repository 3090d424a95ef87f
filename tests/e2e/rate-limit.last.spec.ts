// runtime-spec §4: failed sign-ins are rate-limited per client address (here one fixed address, given to the
// server through X-Forwarded-For). Runs last, in its own Playwright project.
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { SERVERS } from "./servers";

test.describe("runtime-spec §4: sign-in rate limit", () => {
  test("§4 failed sign-ins are rate-limited", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: SERVERS.main.url });
    const page = await context.newPage();
    const messages: string[] = [];
    for (let i = 0; i < 7; i++) {
      await signIn(page, "nobody@example.com", `wrong-${i}`, "en", "198.51.100.7");
      const alert = page.getByTestId("sign-in-form").getByRole("alert");
      await expect(alert).toBeVisible();
      messages.push((await alert.textContent()) ?? "");
    }
    expect(messages[0]).toBe("The e-mail or password is not correct.");
    expect(messages.at(-1)).toBe("Too many attempts. Wait a minute, then try again.");
    await context.close();
  });
});
