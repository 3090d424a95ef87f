// Symbolication as the issue page and the API show it, against the production build with its digest worker: a
// browser error from a minified bundle whose source map was never uploaded keeps its frames as sent and carries a
// processing note (Sentry's js_no_source), read in English and German on the issue page and in the event API's errors.
import { expect, test } from "@playwright/test";
import { OWNER_STATE, screenshot } from "./helpers";
import { createProject, expectJson, mainApi, type TestProject, waitForEvent } from "./ingest-helpers";
import { SERVERS } from "./servers";

const BUNDLE = "https://shop.example.com/static/app.4f2a.js";
let project: TestProject;
let issue: string;
let eventId: string;

test.describe("symbolication notes", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ request }) => {
    const api = mainApi(request);
    project = await createProject(api, { platform: "javascript" });
    eventId = crypto.randomUUID().replaceAll("-", "");
    const event = {
      event_id: eventId,
      platform: "javascript",
      level: "error",
      release: "shop@2.0.0",
      timestamp: Date.now() / 1000,
      exception: {
        values: [
          {
            type: "TypeError",
            value: "e is undefined",
            stacktrace: {
              frames: [
                { filename: BUNDLE, function: "r", lineno: 1, colno: 18231, in_app: true },
                { filename: BUNDLE, function: "n", lineno: 1, colno: 20417, in_app: true },
              ],
            },
          },
        ],
      },
    };
    const r = await fetch(`${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`, {
      method: "POST",
      body: `{"event_id":"${eventId}"}\n{"type":"event"}\n${JSON.stringify(event)}\n`,
    });
    expect(r.status).toBe(200);
    issue = String((await waitForEvent(api, project, eventId)).groupID);
  });

  test("runtime-spec: a missing source map leaves the frames as sent, with a note in both languages and in the API", async ({ page, request }) => {
    await page.goto(`/en/orgs/${project.org}/issues/${issue}`);
    const notes = page.getByTestId("processing-notes");
    await expect(notes.getByRole("heading", { name: "Processing notes" })).toBeVisible();
    await expect(notes.getByTestId("processing-note")).toHaveText([
      `No source map was found for ${BUNDLE}. Upload the bundle and its map with sentry-cli (sourcemaps inject, then sourcemaps upload) for this release and dist.`,
    ]);
    await expect(page.getByTestId("frame").first()).toContainText("/static/app.4f2a.js");
    await screenshot(page, "issue-processing-notes");
    await page.goto(`/de/orgs/${project.org}/issues/${issue}`);
    await expect(page.getByTestId("processing-notes")).toContainText(`Für ${BUNDLE} wurde keine Source Map gefunden.`);
    const detail = await expectJson<{ errors: { type: string; data: { url: string } }[] }>(
      await mainApi(request).get(`/projects/${project.org}/${project.slug}/events/${eventId}/`),
      200,
      "event detail",
    );
    expect(detail.errors.map((e) => [e.type, e.data.url])).toEqual([["js_no_source", BUNDLE]]);
  });
});
