// Issue 16, finding 3: a record the digest could not store is set aside and shown to superusers on the diagnostics
// page, which sends it through the digest again or discards it. Against the production build: a real trigger in the
// server's SQLite database refuses events with a marked title (as a database refuses a value it cannot hold), an
// event so marked is sent through the intake, the digest sets it aside, the page lists it; once the trigger is gone
// (the cause fixed), "Retry" sends it again and it is stored.
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./axe";
import { OWNER_STATE } from "./helpers";
import { createProject, mainApi, unique, waitForEvent } from "./ingest-helpers";
import { SERVERS } from "./servers";

const database = () => new Database(path.join(SERVERS.main.dataDir, "faultline.sqlite3"));

test.describe("records set aside by the digest", () => {
  test.use({ storageState: OWNER_STATE });

  test("hostile input #3: the diagnostics page lists a record set aside; Retry sends it through the digest again, Discard removes one", async ({
    page,
    request,
  }) => {
    const api = mainApi(request);
    const project = await createProject(api, { platform: "node", org: "acme" });
    const marker = unique("refused-by-the-database");
    const db = database();
    db.exec(`create trigger refuse_marked_events before insert on events when new.title like '%${marker}%'
             begin select raise(abort, 'refused by a check in the test'); end`);
    try {
      const send = async () => {
        const eventId = crypto.randomUUID().replaceAll("-", "");
        const url = new URL(project.dsn);
        const r = await fetch(
          `${url.protocol}//${url.host}${SERVERS.main.basePath}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`,
          {
            method: "POST",
            body: `{"event_id":"${eventId}"}\n{"type":"event"}\n${JSON.stringify({ message: `${marker} message`, platform: "node" })}\n`,
          },
        );
        expect(r.status).toBe(200);
        return eventId;
      };
      const retried = await send();
      const discarded = await send();

      const rowOf = (eventId: string) => page.getByTestId("dead-letter-table").getByRole("row").filter({ hasText: eventId });
      await expect
        .poll(
          async () => {
            await page.goto("./en/diagnostics");
            return (await rowOf(retried).count()) + (await rowOf(discarded).count());
          },
          { timeout: 30_000 },
        )
        .toBe(2);
      const row = rowOf(retried);
      await expect(row).toContainText(`acme/${project.slug}`);
      await expect(row).toContainText("refused by a check in the test");
      await expect(row.getByRole("cell").nth(4)).toHaveText("2");
      expect(await seriousViolations(page, "dead-letters")).toEqual([]);

      // The cause is fixed: the record goes through the digest again and is stored.
      db.exec("drop trigger refuse_marked_events");
      await row.getByRole("button", { name: /through the digest again/ }).click();
      await expect(rowOf(retried)).toContainText("Sent again");
      await expect(rowOf(retried).getByRole("button", { name: /through the digest again/ })).toHaveCount(0);
      const stored = await waitForEvent(api, project, retried, 30_000);
      expect(stored.title).toContain(marker);

      await rowOf(discarded)
        .getByRole("button", { name: /^Discard/ })
        .click();
      await expect(rowOf(discarded)).toHaveCount(0);
      await page.goto("./de/diagnostics");
      await expect(page.getByRole("heading", { name: "Vom Digest zurückgestellte Datensätze" })).toBeVisible();
      await expect(rowOf(retried)).toContainText("Erneut geschickt am");
    } finally {
      db.exec("drop trigger if exists refuse_marked_events");
      db.close();
    }
  });
});
