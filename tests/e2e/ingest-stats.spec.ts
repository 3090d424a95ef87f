// A project's Stats tab shows what the intake did with what an SDK sent: accepted events, rate-limited ones
// (a key quota), and what the SDK reported it dropped itself (a client report), in both languages.
import { expect, test } from "@playwright/test";
import { OWNER_STATE } from "./helpers";
import { createProject, mainApi, waitForEvent } from "./ingest-helpers";
import { SERVERS } from "./servers";

test.use({ storageState: OWNER_STATE });

test("the Stats tab counts accepted, rate-limited and client-discarded items by category and reason", async ({ page, request }) => {
  const client = mainApi(request);
  const p = await createProject(client, { platform: "javascript" });
  const quota = await client.put(`/projects/${p.org}/${p.slug}/keys/${p.publicKey}/`, { rateLimit: { window: 3600, count: 1 } });
  expect(quota.status()).toBe(200);
  expect((await quota.json()).rateLimit).toEqual({ window: 3600, count: 1 });
  await new Promise((r) => setTimeout(r, 2100)); // the intake's key cache lives 2 s
  const intake = `${SERVERS.main.url}/api/${p.id}/envelope/?sentry_key=${p.publicKey}&sentry_version=7`;
  const eventId = crypto.randomUUID().replace(/-/g, "");
  const send = (id: string) =>
    request.post(intake, {
      headers: { "content-type": "text/plain;charset=UTF-8" },
      data: `{"event_id":"${id}"}\n{"type":"event"}\n{"exception":{"values":[{"type":"Error","value":"stats"}]}}\n`,
    });
  expect((await send(eventId)).status()).toBe(200);
  const limited = await send(crypto.randomUUID().replace(/-/g, ""));
  expect(limited.status()).toBe(429);
  expect(limited.headers()["x-sentry-rate-limits"]).toMatch(/:key:key_quota$/);
  const report = { timestamp: Date.now() / 1000, discarded_events: [{ reason: "sample_rate", category: "transaction", quantity: 4 }] };
  expect((await request.post(intake, { data: `{}\n{"type":"client_report"}\n${JSON.stringify(report)}\n` })).status()).toBe(200);
  await waitForEvent(client, p, eventId);

  // The page is rendered on the server: reload until the digest has counted the refused and reported items too.
  const day = page.getByTestId("stats-24h");
  await expect(async () => {
    await page.goto(`./en/orgs/${p.org}/projects/${p.slug}/settings/stats`);
    await expect(day.getByRole("row", { name: /Accepted error/ })).toContainText("1", { timeout: 1000 });
    await expect(day.getByRole("row", { name: /Rate-limited error key_quota/ })).toContainText("1", { timeout: 1000 });
    await expect(day.getByRole("row", { name: /Dropped by the SDK transaction sample_rate/ })).toContainText("4", { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await page.goto(`./de/orgs/${p.org}/projects/${p.slug}/settings/stats`);
  await expect(page.getByRole("heading", { name: "Nutzungsstatistik" })).toBeVisible();
  await expect(page.getByTestId("stats-30d").getByRole("row", { name: /Angenommen error/ })).toBeVisible();
});
