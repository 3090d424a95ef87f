// runtime-spec §4: failed sign-ins are rate-limited per client address. Runs last (its own Playwright project):
// afterwards this address cannot sign in for a minute.
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { SERVERS } from "./servers";

test.describe("runtime-spec §4: sign-in rate limit", () => {
  test("§4 failed sign-ins are rate-limited", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: SERVERS.main.url });
    const page = await context.newPage();
    const messages: string[] = [];
    for (let i = 0; i < 7; i++) {
      await signIn(page, "nobody@example.com", `wrong-${i}`);
      const alert = page.getByRole("alert");
      await expect(alert).toBeVisible();
      messages.push((await alert.textContent()) ?? "");
    }
    expect(messages[0]).toBe("The e-mail or password is not correct.");
    expect(messages.at(-1)).toBe("Too many attempts. Wait a minute, then try again.");
    await context.close();
  });
});
