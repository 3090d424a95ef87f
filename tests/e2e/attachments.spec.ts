// Attachments in the browser (issue 19), against the production build: an event sent to the real intake with a
// screenshot (PNG), a view hierarchy, a log and an SVG shows on its event page as a list with types and sizes, the
// screenshot inline (decoded by Chromium), the view hierarchy as a tree, each file downloadable with the name it was
// sent with; the SVG is never shown in place and downloads as an attachment with nosniff and a sandboxing policy;
// Sentry's attachment API answers the list and the contents; the project's settings save who may download; axe
// finds no serious violation on the page in either palette.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { seriousViolations } from "./axe";
import { api, OWNER_STATE, screenshot } from "./helpers";
import { createProject, expectJson, mainApi, type TestProject, waitForEvent } from "./ingest-helpers";
import { SERVERS } from "./servers";
import { makePng } from "../helpers/png";

test.use({ storageState: OWNER_STATE });

const hex = () => crypto.randomUUID().replace(/-/g, "");
const PNG = makePng(320, 200, [30, 120, 200]);
const HIERARCHY = {
  rendering_system: "android_view_system",
  windows: [
    {
      type: "com.example.CheckoutActivity",
      identifier: "root",
      width: 320,
      height: 200,
      x: 0,
      y: 0,
      children: [{ type: "android.widget.Button", identifier: "pay_button", width: 120, height: 40, x: 100, y: 150, visible: true, children: [] }],
    },
  ],
};
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>window.__svgRan = true</script></svg>';

function item(headers: Record<string, unknown>, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${JSON.stringify({ ...headers, length: payload.byteLength })}\n`), payload, Buffer.from("\n")]);
}

test.describe("attachments", () => {
  let project: TestProject;
  let eventId: string;
  let issueId: string;

  test.beforeAll(async ({ request }) => {
    project = await createProject(mainApi(request), { platform: "java" });
    eventId = hex();
    const event = {
      event_id: eventId,
      platform: "java",
      level: "error",
      exception: { values: [{ type: "IllegalStateException", value: "checkout crashed" }] },
    };
    const body = Buffer.concat([
      Buffer.from(`{"event_id":"${eventId}"}\n`),
      item({ type: "event" }, Buffer.from(JSON.stringify(event))),
      item({ type: "attachment", filename: "screenshot.png", content_type: "image/png" }, PNG),
      item(
        { type: "attachment", filename: "view-hierarchy.json", content_type: "application/json", attachment_type: "event.view_hierarchy" },
        Buffer.from(JSON.stringify(HIERARCHY)),
      ),
      item({ type: "attachment", filename: "logcat.txt", content_type: "text/plain" }, Buffer.from("I/Checkout: pay pressed\nE/Checkout: boom\n")),
      item({ type: "attachment", filename: "logo.svg", content_type: "image/svg+xml" }, Buffer.from(SVG)),
    ]);
    const r = await fetch(`${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`, { method: "POST", body });
    expect(r.status).toBe(200);
    issueId = (await waitForEvent(mainApi(request), project, eventId)).groupID!;
  });

  test("the event page lists them, shows the screenshot and the view hierarchy, downloads by name; axe finds nothing serious", async ({ page }) => {
    await expect(async () => {
      await page.goto(`./en/orgs/${project.org}/issues/${issueId}/events/${eventId}`);
      await expect(page.getByTestId("attachment-row")).toHaveCount(4, { timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    const section = page.getByTestId("event-attachments");
    for (const text of ["screenshot.png", "image/png", "view-hierarchy.json", "event.view_hierarchy", "logcat.txt", "logo.svg"])
      await expect(section).toContainText(text);
    // The screenshot is shown in place and Chromium decoded it; the SVG is only listed.
    const img = page.getByTestId("attachment-image").locator("img");
    await expect(img).toHaveCount(1);
    await expect(img).toHaveAttribute("alt", "Screenshot screenshot.png");
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(320);
    await expect(page.getByTestId("attachment-image").locator("figcaption")).toHaveText(["screenshot.png"]);
    // The view hierarchy as a tree.
    const tree = page.getByTestId("view-hierarchy");
    await expect(tree).toContainText("android_view_system");
    await expect(tree.getByTestId("view-node")).toHaveCount(2);
    await expect(tree).toContainText("android.widget.Button #pay_button");
    await expect(tree).toContainText("100,150 120×40");
    await screenshot(page, "event-attachments");
    // Download by the name it was sent with, the bytes as sent.
    const downloading = page.waitForEvent("download");
    await section.getByRole("link", { name: "Download logcat.txt" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("logcat.txt");
    expect(readFileSync(await download.path())).toEqual(Buffer.from("I/Checkout: pay pressed\nE/Checkout: boom\n"));
    expect(await seriousViolations(page, "event-attachments")).toEqual([]);
  });

  test("Sentry's attachment API: the list, one attachment, its contents with safe headers; an SVG never inline", async ({ request }) => {
    const base = `/projects/${project.org}/${project.slug}/events/${eventId}/attachments/`;
    const list = await expectJson<{ id: string; name: string; mimetype: string; size: number; type: string; sha1: string }[]>(
      await api(request).get(base),
      200,
      "attachments",
    );
    expect(list.map((a) => a.name).sort()).toEqual(["logcat.txt", "logo.svg", "screenshot.png", "view-hierarchy.json"]);
    const shot = list.find((a) => a.name === "screenshot.png")!;
    expect(shot).toMatchObject({ mimetype: "image/png", size: PNG.byteLength, type: "event.attachment" });
    expect(await expectJson(await api(request).get(`${base}${shot.id}/`), 200, "one")).toMatchObject({ id: shot.id, name: "screenshot.png" });
    const contents = await api(request).get(`${base}${shot.id}/?download=1`);
    expect(contents.status()).toBe(200);
    expect(Buffer.from(await contents.body())).toEqual(PNG);
    expect(contents.headers()["content-length"], "streamed, with its length announced").toBe(String(PNG.byteLength));
    expect(contents.headers()["content-disposition"]).toMatch(/^attachment; filename="screenshot.png"/);
    expect(contents.headers()["x-content-type-options"]).toBe("nosniff");
    expect(contents.headers()["content-security-policy"]).toContain("sandbox");
    const svg = list.find((a) => a.name === "logo.svg")!;
    const svgInline = await api(request).get(`${base}${svg.id}/?download=1&inline=1`);
    expect(svgInline.headers()["content-type"]).toBe("application/octet-stream");
    expect(svgInline.headers()["content-disposition"]).toMatch(/^attachment;/);
    expect((await api(request).get(`${base}999999/?download=1`)).status()).toBe(404);
  });

  test("project settings: who may download attachments, saved and read back from the API", async ({ page, request }) => {
    await page.goto(`./en/orgs/${project.org}/projects/${project.slug}/settings`);
    const form = page.getByTestId("attachments-role-form");
    await expect(form.getByLabel("Who may download attachments")).toHaveValue("member");
    await form.getByLabel("Who may download attachments").selectOption("admin");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("status")).toContainText("Saved.");
    expect(await expectJson(await api(request).get(`/projects/${project.org}/${project.slug}/`), 200, "project")).toMatchObject({ attachmentsRole: "admin" });
    await screenshot(page, "project-attachments-role");
    expect(await seriousViolations(page, "project-settings-attachments")).toEqual([]);
  });
});
