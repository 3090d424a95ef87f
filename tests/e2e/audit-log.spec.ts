// Issue 20, the audit trail, against a production build: changes made over the API (a key created, disabled and
// revoked; an alert rule) are recorded with who, the client's address and old and new values; the organization's
// settings show them with filters that work without JavaScript (en and de, axe-clean); GET …/audit-logs/ answers in
// Sentry's shape ({"rows", "options"}) and needs org:write of a token; a failed sign-in and a lock-out are shown to
// the superuser under Instance settings → Security.
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./axe";
import { api, cli, OWNER_STATE, submitSignIn } from "./helpers";
import { createProject, expectJson, mainApi, type TestProject, unique } from "./ingest-helpers";
import { OWNER, SERVERS } from "./servers";

const ADDRESS = "198.51.100.23";
let project: TestProject;

test.beforeAll(async ({ request }) => {
  project = await createProject(mainApi(request), { platform: "node" });
});

type Row = {
  id: string;
  actor: { email: string | null };
  event: string;
  ipAddress: string | null;
  note: string;
  targetObject: unknown;
  data: { old?: unknown; new?: unknown };
  dateCreated: string;
};

test.describe("issue 20 audit trail", () => {
  test.use({ storageState: OWNER_STATE });

  test("API changes are recorded with the address and old and new values; the settings page filters them, with and without JavaScript", async ({
    page,
    request,
    browser,
  }) => {
    const headers = { authorization: `Bearer ${cli("main", "createtoken", "--email", OWNER.email)}`, "x-forwarded-for": ADDRESS };
    const keys = `${SERVERS.main.url}/api/0/projects/${project.org}/${project.slug}/keys/`;
    const key = await expectJson(await request.post(keys, { headers, data: { name: "Audited" } }), 201, "create key");
    await expectJson(await request.put(`${keys}${key.id}/`, { headers, data: { isActive: false } }), 200, "disable key");
    expect((await request.delete(`${keys}${key.id}/`, { headers })).status()).toBe(204);

    // The API, in Sentry's shape.
    const logs = `${SERVERS.main.url}/api/0/organizations/${project.org}/audit-logs/`;
    const body = await expectJson<{ rows: Row[]; options: string[] }>(await request.get(logs, { headers }), 200, "audit logs");
    expect(body.options).toEqual(expect.arrayContaining(["projectkey.create", "projectkey.edit", "projectkey.remove"]));
    const [removed, edited, created] = body.rows;
    expect([removed!.event, edited!.event, created!.event]).toEqual(["projectkey.remove", "projectkey.edit", "projectkey.create"]);
    expect(removed).toMatchObject({ actor: { email: OWNER.email }, ipAddress: ADDRESS, targetObject: key.id });
    expect(edited!.data).toMatchObject({ old: { isActive: true }, new: { isActive: false } });
    expect(new Date(removed!.dateCreated).getTime()).toBeGreaterThan(Date.now() - 120_000);
    const filtered = await expectJson<{ rows: Row[] }>(await request.get(`${logs}?event=projectkey.edit`, { headers }), 200, "filtered");
    expect(filtered.rows.map((r) => r.event)).toEqual(["projectkey.edit"]);
    // A token needs org:write here, as Sentry's endpoint.
    const reader = api(request, cli("main", "createtoken", "--email", OWNER.email, "--scope", "org:read"));
    await expectJson(await reader.get(`/organizations/${project.org}/audit-logs/`), 403, "org:read only");

    // The settings page, filtered by event.
    await page.goto(`/en/orgs/${project.org}/settings/audit`);
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Audit log" })).toHaveAttribute("aria-current", "page");
    const table = page.getByTestId("audit-table");
    await expect(table.locator('tr[data-event="projectkey.remove"]')).toContainText(ADDRESS);
    await expect(table.locator('tr[data-event="projectkey.edit"]')).toContainText(OWNER.email);
    const filters = page.getByTestId("audit-filters");
    await filters.getByLabel("Event").selectOption("projectkey.edit");
    await filters.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/event=projectkey.edit/);
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await expect(table).toContainText("disabled the key");
    const found = await seriousViolations(page, "a11y-audit-log-en");

    const noJs = await browser.newContext({ storageState: OWNER_STATE, javaScriptEnabled: false });
    const plain = await noJs.newPage();
    await plain.goto(`${SERVERS.main.url}/de/orgs/${project.org}/settings/audit`);
    await expect(plain.getByRole("heading", { level: 1, name: "Audit-Log" })).toBeVisible();
    await plain.getByTestId("audit-filters").getByLabel("Ereignis").selectOption("projectkey.create");
    await plain.getByTestId("audit-filters").getByRole("button", { name: "Filtern" }).click();
    await expect(plain.getByTestId("audit-table").locator("tbody tr")).toHaveCount(1);
    await expect(plain.getByTestId("audit-table")).toContainText("projectkey.create");
    await noJs.close();

    await page.goto(`/de/orgs/${project.org}/settings/audit`);
    found.push(...(await seriousViolations(page, "a11y-audit-log-de")));
    expect(found, `axe-core found serious or critical violations:\n\n${found.join("\n\n")}`).toEqual([]);
  });

  test("a failed sign-in and a lock-out are shown to the superuser under Instance settings → Security", async ({ browser, page }) => {
    const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    const signIn = await visitor.newPage();
    const email = `${unique("intruder")}@example.com`;
    const address = "192.0.2.77";
    // Five attempts a minute per address (AUTH_LIMITS); the sixth is refused for too many.
    for (let i = 0; i < 6; i++) {
      await signIn.goto(`${SERVERS.main.url}/en/sign-in`);
      await submitSignIn(signIn, email, "wrong password", "en", address);
      await expect(signIn.locator("p.form-error[role=alert]")).toBeVisible();
    }
    await expect(signIn.locator("p.form-error[role=alert]")).toContainText(/Too many/i);
    await visitor.close();

    await page.goto("/en/instance/security");
    await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
    const rows = page.getByTestId("audit-table").locator("tbody tr").filter({ hasText: email });
    await expect(rows.filter({ has: page.locator("code", { hasText: "auth.sign-in-failed" }) })).toHaveCount(5);
    await expect(rows.filter({ has: page.locator("code", { hasText: "auth.lock-out" }) }).first()).toContainText(address);
    expect(await seriousViolations(page, "a11y-instance-security")).toEqual([]);

    // Parameters too long to name anything (they answered 500): the newest entries, or none.
    const long = `cursor=${"9".repeat(40)}&event=${"e".repeat(150)}`;
    for (const path of [`/en/instance/security?${long}`, `/en/orgs/${project.org}/settings/audit?${long}`]) {
      expect((await page.goto(path))?.status(), path).toBe(200);
      await expect(page.getByTestId("audit-empty"), path).toBeVisible();
    }
    expect((await page.goto(`/en/instance/security?cursor=${"9".repeat(40)}`))?.status()).toBe(200);
    await expect(page.getByTestId("audit-table").locator("tbody tr").first()).toBeVisible();
  });
});
