// An event whose stored data is damaged on disk (its events.data bytes no longer inflate) is shown with what its
// columns keep and a notice saying why the rest is missing, in English and German, and the API still answers for
// it: one damaged row never turns the issue page or the event API into a server error. Against the production build,
// with the row damaged in the server's own SQLite file.
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { api, OWNER_STATE } from "./helpers";
import { createProject, mainApi, unique, waitForEvent } from "./ingest-helpers";
import { SERVERS } from "./servers";

test.describe("an event damaged on disk", () => {
  test.use({ storageState: OWNER_STATE });

  test("its issue page answers 200 with a notice and the stored title; the event API answers 200", async ({ page, request }) => {
    const client = mainApi(request);
    const project = await createProject(client, { platform: "node", org: "acme" });
    const marker = unique("damaged-on-disk");
    const eventId = crypto.randomUUID().replaceAll("-", "");
    const url = new URL(project.dsn);
    const sent = await fetch(
      `${url.protocol}//${url.host}${SERVERS.main.basePath}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`,
      {
        method: "POST",
        body: `{"event_id":"${eventId}"}\n{"type":"event"}\n${JSON.stringify({ message: marker, platform: "node", level: "error" })}\n`,
      },
    );
    expect(sent.status).toBe(200);
    const stored = await waitForEvent(client, project, eventId, 30_000);
    expect(stored.groupID).not.toBeNull();

    const issuePage = `./en/orgs/${project.org}/issues/${stored.groupID}/events/${eventId}`;
    await page.goto(issuePage);
    await expect(page.getByTestId("event-data-unreadable")).toHaveCount(0);

    const db = new Database(path.join(SERVERS.main.dataDir, "faultline.sqlite3"));
    try {
      // Codec byte 1 (deflate) followed by bytes that are not a deflate stream.
      const changed = db.prepare("update events set data = ? where event_id = ?").run(Buffer.from([0x01, 0xff, 0x00, 0x13]), eventId);
      expect(changed.changes).toBe(1);
    } finally {
      db.close();
    }

    const answer = await page.goto(issuePage);
    expect(answer?.status()).toBe(200);
    await expect(page.getByTestId("event-data-unreadable")).toContainText("cannot be read");
    await expect(page.getByTestId("event-id")).toHaveText(eventId);
    await expect(page.getByTestId("issue-title")).toContainText(marker);
    await page.goto(`./de/orgs/${project.org}/issues/${stored.groupID}/events/${eventId}`);
    await expect(page.getByTestId("event-data-unreadable")).toContainText("nicht lesbar");

    const viaApi = await api(request).get(`/projects/${project.org}/${project.slug}/events/${eventId}/`);
    expect(viaApi.status()).toBe(200);
    expect(((await viaApi.json()) as { eventID: string }).eventID).toBe(eventId);
  });
});
