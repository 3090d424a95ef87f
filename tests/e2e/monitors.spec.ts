// Issue 19 cron monitors against a production build: the real sentry-cli 2.58.6 wraps `true` and `false` with
// `monitors run` (check-ins to the DSN, the monitor upserted from --schedule) and lists the organization's monitors
// with `monitors list` through Sentry's monitors API; the API creates, edits, mutes and refuses bad schedules with
// 400; the monitors page shows each environment's timeline, the monitor's page its durations chart and check-ins,
// mute and edit work as plain forms, and axe finds no serious violation.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { seriousViolations } from "./axe";
import { api, OWNER_STATE, ownerApiToken, screenshot } from "./helpers";
import { createProject, expectJson, mainApi, run, sleep, type TestProject, unique } from "./ingest-helpers";
import { SENTRY_CLI_2 } from "./sentry-cli";
import { SERVERS } from "./servers";

let project: TestProject;
let home: string;
test.beforeAll(async ({ request }) => {
  project = await createProject(mainApi(request), { platform: "node" });
  home = mkdtempSync(path.join(os.tmpdir(), "faultline-monitors-"));
});
test.afterAll(() => rmSync(home, { recursive: true, force: true }));

const sentryCli = (args: string[]) =>
  run(SENTRY_CLI_2, args, {
    cwd: home,
    timeoutMs: 60_000,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      SENTRY_URL: SERVERS.main.url,
      SENTRY_AUTH_TOKEN: ownerApiToken(),
      SENTRY_ORG: project.org,
      SENTRY_DSN: project.dsn,
      SENTRY_LOAD_DOTENV: "0",
      SENTRY_DISABLE_UPDATE_CHECK: "true",
    },
  });

type CheckIn = { id: string; status: string; environment: string; duration: number | null };

test.describe("issue 19 cron monitors", () => {
  test.use({ storageState: OWNER_STATE });

  test("sentry-cli monitors run -- true / -- false sends check-ins to the DSN, and monitors list reads the API", async ({ request }) => {
    const slug = unique("nightly").toLowerCase();
    const ok = await sentryCli(["monitors", "run", slug, "--schedule", "*/30 * * * *", "--timezone", "Europe/Berlin", "--", "true"]);
    expect(ok.code, ok.stderr).toBe(0);
    const failed = await sentryCli(["monitors", "run", slug, "--schedule", "*/30 * * * *", "--timezone", "Europe/Berlin", "--", "false"]);
    expect(failed.code, "the wrapped program's exit status").toBe(1);
    const client = api(request);
    let checkIns: CheckIn[] = [];
    for (let i = 0; i < 100 && checkIns.filter((c) => c.status !== "in_progress").length < 2; i++) {
      const r = await client.get(`/organizations/${project.org}/monitors/${slug}/checkins/`);
      checkIns = r.status() === 200 ? await r.json() : [];
      if (checkIns.length < 2) await sleep(100);
    }
    expect(checkIns.map((c) => c.status)).toEqual(["error", "ok"]);
    expect(checkIns.every((c) => c.environment === "production" && c.duration !== null)).toBe(true);
    const monitor = await expectJson(await client.get(`/organizations/${project.org}/monitors/${slug}/`), 200, "monitor");
    expect(monitor).toMatchObject({
      slug,
      name: slug,
      status: "active",
      isMuted: false,
      type: "cron_job",
      config: { schedule_type: "crontab", schedule: "*/30 * * * *", timezone: "Europe/Berlin" },
      project: { slug: project.slug },
    });

    const listed = await sentryCli(["monitors", "list"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(slug);
    expect(listed.stdout).toContain(monitor.id);
    expect(listed.stdout).toContain("active");
  });

  test("the API creates, edits and mutes a monitor, and refuses bad schedules, time zones and slugs with 400", async ({ request }) => {
    const client = api(request);
    const base = `/organizations/${project.org}/monitors/`;
    const slug = unique("backup").toLowerCase();
    const created = await expectJson(
      await client.post(base, {
        project: project.slug,
        name: "Backup",
        slug,
        type: "cron_job",
        config: { schedule_type: "interval", schedule: [6, "hour"], checkin_margin: 10, max_runtime: 60, failure_issue_threshold: 2, recovery_threshold: 3 },
      }),
      201,
      "create",
    );
    expect(created).toMatchObject({
      slug,
      name: "Backup",
      config: {
        schedule_type: "interval",
        schedule: [6, "hour"],
        checkin_margin: 10,
        max_runtime: 60,
        failure_issue_threshold: 2,
        recovery_threshold: 3,
        timezone: "UTC",
      },
    });
    await expectJson(
      await client.post(base, { project: project.slug, name: "Again", slug, config: { schedule_type: "crontab", schedule: "0 * * * *" } }),
      409,
      "a slug taken",
    );
    const edited = await expectJson(
      await client.put(`${base}${slug}/`, { isMuted: true, config: { schedule_type: "crontab", schedule: "15 2 * * 1-5", timezone: "Asia/Tokyo" } }),
      200,
      "edit",
    );
    expect(edited).toMatchObject({ isMuted: true, config: { schedule_type: "crontab", schedule: "15 2 * * 1-5", timezone: "Asia/Tokyo", checkin_margin: 10 } });
    for (const body of [
      { project: project.slug, name: "Bad", config: { schedule_type: "crontab", schedule: "61 * * * *" } },
      { project: project.slug, name: "Bad", config: { schedule_type: "crontab", schedule: "0 * * * *", timezone: "Mars/Olympus" } },
      { project: project.slug, name: "Bad", config: { schedule_type: "interval", schedule: [1e20, "day"] } },
      { project: project.slug, name: "Bad", slug: "Not A Slug!", config: { schedule_type: "crontab", schedule: "0 * * * *" } },
      { project: project.slug, name: "\u0000".repeat(300), config: { schedule_type: "crontab", schedule: "0 * * * *" } },
      { project: project.slug, name: "Bad", config: { schedule_type: "crontab", schedule: "x".repeat(1000) } },
    ]) {
      const r = await client.post(base, body);
      expect(r.status(), JSON.stringify(body).slice(0, 100)).toBe(400);
    }
    // A body past the API's JSON limit is refused before it is read.
    expect(
      (await client.post(base, { project: project.slug, name: "Big", config: { schedule_type: "crontab", schedule: "x".repeat(1024 * 1024) } })).status(),
    ).toBe(413);
    expect((await client.get(`${base}no-such-monitor/`)).status()).toBe(404);
  });

  test("the monitors page shows timelines; the monitor's page its durations, check-ins, mute and edit", async ({ page, request }) => {
    const slug = unique("report").toLowerCase();
    for (const program of ["true", "false", "true"]) await sentryCli(["monitors", "run", slug, "-e", "staging", "--schedule", "0 5 * * *", "--", program]);
    const client = api(request);
    for (let i = 0; i < 100; i++) {
      const r = await client.get(`/organizations/${project.org}/monitors/${slug}/checkins/`);
      if (r.status() === 200 && ((await r.json()) as CheckIn[]).filter((c) => c.status !== "in_progress").length === 3) break;
      await sleep(100);
    }
    await page.goto(`/en/orgs/${project.org}/monitors`);
    await expect(page.getByRole("heading", { level: 1, name: "Cron monitors" })).toBeVisible();
    const row = page.getByTestId(`monitor-${slug}`);
    const marks = row.getByTestId("monitor-env-staging").getByTestId("checkin-timeline").locator("i");
    await expect(marks).toHaveCount(3);
    await expect(marks.nth(1)).toHaveClass("checkin-error");
    await expect(marks.nth(1)).toHaveAttribute("title", /^Error, /);
    // One image for screen readers: the check-ins counted by status, and the latest.
    await expect(row.getByTestId("monitor-env-staging").getByRole("img")).toHaveAttribute(
      "aria-label",
      /^Latest check-ins in staging, oldest first; (OK 2, Error 1|Error 1, OK 2); latest: OK, /,
    );
    expect(await seriousViolations(page, "monitors-list")).toEqual([]);
    await screenshot(page, "monitors-list");

    await row.getByRole("link", { name: slug }).click();
    await expect(page.getByRole("heading", { level: 1, name: slug })).toBeVisible();
    await expect(page.getByTestId("checkin-table").locator("tbody tr")).toHaveCount(3);
    await expect(page.getByTestId("monitor-durations")).toBeVisible();
    expect(await seriousViolations(page, "monitor-detail")).toEqual([]);
    await screenshot(page, "monitor-detail");

    await page.getByTestId("mute-monitor").getByRole("button", { name: "Mute" }).click();
    await expect(page.getByTestId("monitor-muted")).toBeVisible();
    const form = page.getByTestId("monitor-form");
    await form.getByLabel("Schedule", { exact: true }).fill("45 6 * * *");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page.getByTestId("monitor-schedule")).toHaveText("45 6 * * *");
    await form.getByLabel("Schedule", { exact: true }).fill("not a crontab");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByRole("alert").first()).toBeVisible();
    expect((await expectJson(await client.get(`/organizations/${project.org}/monitors/${slug}/`), 200, "monitor")).config.schedule).toBe("45 6 * * *");

    await page.goto(`/de/orgs/${project.org}/monitors/new`);
    await expect(page.getByRole("heading", { level: 1, name: "Neuer Monitor" })).toBeVisible();
    await page.goto(`/en/orgs/${project.org}/monitors/new`);
    const create = page.getByTestId("monitor-form");
    await create.getByLabel("Name").fill("Invoice run");
    await create.getByLabel("Slug").fill(`${slug}-invoices`);
    await create.getByLabel("Schedule", { exact: true }).fill("0 1 * * *");
    await create.getByRole("button", { name: "Create monitor" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Invoice run" })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/monitors/${slug}-invoices$`));
  });
});
