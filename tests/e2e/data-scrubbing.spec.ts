// Data scrubbing (issue 18) in Chromium against the production build: an event sent with an Authorization header, a
// password in `extra` and a user's e-mail is stored scrubbed by the defaults, and its issue page lists what was
// scrubbed and by which rule; the project's settings screen saves Sentry's options (read back from the API), previews
// a "[Method] [Type] from [Source]" rule on the newest event before saving it, lists and removes it, refuses JSON
// that Relay would refuse, and the organization's screen saves what every project must scrub.
import { expect, test } from "@playwright/test";
import { api, OWNER_STATE, screenshot } from "./helpers";
import { createProject, expectJson, mainApi, type TestProject, waitForEvent } from "./ingest-helpers";
import { SERVERS } from "./servers";

let project: TestProject;
let issueId: string;
type ProjectSettings = {
  dataScrubber: boolean;
  dataScrubberDefaults: boolean;
  sensitiveFields: string[];
  safeFields: string[];
  scrubIPAddresses: boolean;
  relayPiiConfig: string | null;
};

test.describe("data scrubbing", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "node" });
    const id = crypto.randomUUID().replace(/-/g, "");
    const event = {
      message: "checkout failed",
      platform: "node",
      level: "error",
      request: { url: "https://shop.example/checkout", method: "POST", headers: { Authorization: "Bearer planted-bearer-token", Accept: "*/*" } },
      extra: { password: "planted-password", order: "A-17" },
      user: { id: "42", email: "ann@example.com" },
    };
    const url = `${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`;
    expect((await fetch(url, { method: "POST", body: `{"event_id":"${id}"}\n{"type":"event"}\n${JSON.stringify(event)}\n` })).status).toBe(200);
    issueId = (await waitForEvent(mainApi(request), project, id)).groupID!;
  });

  test("the issue page lists what the defaults scrubbed, and no planted secret is shown", async ({ page }) => {
    await page.goto(`./en/orgs/${project.org}/issues/${issueId}`);
    const scrubbed = page.getByTestId("scrubbed-fields");
    await expect(scrubbed).toContainText("Scrubbed data");
    await expect(scrubbed.locator('[data-path="request.headers.Authorization"]')).toContainText("@password:filter");
    await expect(scrubbed.locator('[data-path="extra.password"]')).toContainText("@password:filter");
    await expect(page.locator("body")).not.toContainText("planted-");
    await expect(page.locator("body")).toContainText("A-17");
    await screenshot(page, "issue-scrubbed-data");
  });

  test("project screen: options saved and read back from the API; a rule previewed, added, listed and removed", async ({ page, request }) => {
    const read = async () => expectJson<ProjectSettings>(await api(request).get(`/projects/${project.org}/${project.slug}/`), 200, "project");
    expect(await read()).toMatchObject({
      dataScrubber: true,
      dataScrubberDefaults: true,
      sensitiveFields: [],
      safeFields: [],
      scrubIPAddresses: false,
      relayPiiConfig: null,
    });
    await page.goto(`./en/orgs/${project.org}/projects/${project.slug}/settings/scrubbing`);
    const options = page.getByTestId("scrubbing-options-form");
    await expect(page.getByTestId("scrub-dataScrubber")).toBeChecked();
    await page.getByTestId("scrub-scrubIPAddresses").check();
    await options.getByLabel("More sensitive fields").fill("order\niban");
    await options.getByRole("button", { name: "Save" }).click();
    await expect(options.getByRole("status")).toContainText("Saved.");
    expect(await read()).toMatchObject({ scrubIPAddresses: true, sensitiveFields: ["order", "iban"] });

    const form = page.getByTestId("scrub-rule-form");
    await form.getByLabel("Method", { exact: true }).selectOption("replace");
    await form.getByLabel("Data type", { exact: true }).selectOption("email");
    await form.getByLabel("Source", { exact: true }).fill("$user.email");
    await form.getByRole("button", { name: "Preview on the newest event" }).click();
    await expect(form.getByRole("status")).toContainText("would change in 1 place");
    await expect(form.getByTestId("result-user.email")).toContainText("ann@example.com → [Filtered]");
    expect((await read()).relayPiiConfig, "a preview saves nothing").toBeNull();
    await form.getByRole("button", { name: "Add rule" }).click();
    await expect(page.getByTestId("scrub-rule")).toHaveText(/\[Replace\] \[E-mail addresses\] from \[\$user\.email\]/);
    expect(JSON.parse((await read()).relayPiiConfig!)).toEqual({
      rules: { "0": { type: "email", redaction: { method: "replace", text: "[Filtered]" } } },
      applications: { "$user.email": ["0"] },
    });
    await screenshot(page, "project-data-scrubbing");

    const json = page.getByTestId("scrub-json-form");
    await json.getByLabel("relayPiiConfig").fill('{"applications":{"$string &&":["@ip"]}}');
    await json.getByRole("button", { name: "Save" }).click();
    await expect(json.getByRole("alert")).toBeVisible();
    expect(JSON.parse((await read()).relayPiiConfig!).applications).toEqual({ "$user.email": ["0"] });

    await page.getByTestId("scrub-rule-remove").getByRole("button", { name: "Remove" }).click();
    await expect(page.getByTestId("scrub-no-rules")).toBeVisible();
    expect((await read()).relayPiiConfig).toBeNull();
  });

  test("organization screen: what every project must scrub, saved and read back", async ({ page, request }) => {
    await page.goto(`./en/orgs/${project.org}/settings/scrubbing`);
    const options = page.getByTestId("scrubbing-options-form");
    await expect(page.getByTestId("scrub-dataScrubber")).not.toBeChecked();
    await page.getByTestId("scrub-dataScrubber").check();
    await options.getByLabel("Safe fields").fill("order_id");
    await options.getByRole("button", { name: "Save" }).click();
    await expect(options.getByRole("status")).toContainText("Saved.");
    const org = await expectJson<ProjectSettings>(await api(request).get(`/organizations/${project.org}/`), 200, "organization");
    expect(org).toMatchObject({ dataScrubber: true, safeFields: ["order_id"] });
  });
});
