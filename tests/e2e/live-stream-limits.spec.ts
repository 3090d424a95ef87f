// The issue stream against a user who opens too much or leaves: against the production build, with a user of its own
// (so no other test's pages count towards its streams). Past STREAM_LIMITS.maxStreamsPerUser the oldest stream ends
// and its page says so, and a HEAD takes none; a signed-out session's stream ends at its next poll; a search past the
// length limit is a 400 in the API and a readable message on the page. Streams are read frame by frame over real
// HTTP; nothing is timed.
import { type Browser, expect, test } from "@playwright/test";
import { STREAM_LIMITS } from "../../src/config/limits";
import { cli, signIn } from "./helpers";
import { apiAt, createProject, expectJson, type TestProject, unique } from "./ingest-helpers";
import { SERVERS } from "./servers";
import { endOf, Stream } from "./sse-stream";

test.describe("live stream limits", () => {
  const email = `${unique("streams")}@example.com`;
  const password = "password123 streams";
  let project: TestProject;
  let token: string;

  test.beforeAll(async ({ request }) => {
    cli("main", "createuser", "--email", email, "--password", password, "--superuser", "--no-input");
    token = cli("main", "createtoken", "--email", email);
    project = await createProject(apiAt(request, SERVERS.main.url, token), { platform: "node" });
  });

  /** A fresh session of the test's user in its own browser context: the page and the cookie header it signs with. */
  async function session(browser: Browser) {
    const context = await browser.newContext({ baseURL: `${SERVERS.main.url}/` });
    const page = await context.newPage();
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/en\/orgs/);
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    return { context, page, cookie };
  }

  const streamUrl = () => `${SERVERS.main.url}/api/internal/orgs/${project.org}/issues/stream?project=${project.slug}`;

  test("hostile input #10: past the per-user limit the oldest stream ends and its page says so; the newer ones keep updating", async ({ browser }) => {
    const { context, page, cookie } = await session(browser);
    // The page's EventSource is the user's oldest stream once it has connected: wait for its first poll's answer.
    const connected = page.waitForResponse((r) => r.url().includes("/issues/stream"));
    await page.goto(`./en/orgs/${project.org}/issues?project=${project.slug}`);
    await connected;
    const ended = page.getByTestId("live-ended");
    await expect(ended).toHaveCount(0);
    const streams: Stream[] = [];
    for (let i = 0; i < STREAM_LIMITS.maxStreamsPerUser; i++) streams.push(await Stream.open(streamUrl(), cookie));
    await expect(ended).toHaveText("Live updates stopped here: newer pages of yours show them. Reload to follow them here again.");
    await expect(ended).toHaveAttribute("data-code", "superseded");

    // One more: the oldest fetched stream ends with `superseded`, the newest keeps polling.
    streams.push(await Stream.open(streamUrl(), cookie));
    const oldest = await streams[0]!.until(3);
    expect(endOf(oldest)?.data).toBe(JSON.stringify({ code: "superseded", reason: "Live updates continue in a newer page" }));
    expect(await streams[0]!.next(), "the superseded stream is closed").toBeNull();
    const newest = await streams.at(-1)!.until(2);
    expect(endOf(newest), "the newest stream still polls").toBeUndefined();
    const second = await streams[1]!.until(1);
    expect(endOf(second), "streams within the limit still poll").toBeUndefined();
    await Promise.all(streams.map((s) => s.close()));
    await context.close();
  });

  test("hostile input #10: a HEAD of the stream is its headers alone and holds none of the user's streams", async ({ browser }) => {
    const { context, cookie } = await session(browser);
    const oldest = await Stream.open(streamUrl(), cookie);
    // As many HEADs as the user may hold streams: each took one, and polled, until its connection's time ran out.
    for (let i = 0; i < STREAM_LIMITS.maxStreamsPerUser; i++) {
      const head = await fetch(streamUrl(), { method: "HEAD", headers: { cookie } });
      expect([head.status, head.headers.get("content-type")]).toEqual([200, "text/event-stream; charset=utf-8"]);
    }
    const others: Stream[] = [];
    for (let i = 1; i < STREAM_LIMITS.maxStreamsPerUser; i++) others.push(await Stream.open(streamUrl(), cookie));
    const frames = await oldest.until(2);
    expect(endOf(frames), "within the limit with the GETs alone, the oldest stream still polls").toBeUndefined();
    await Promise.all([oldest, ...others].map((s) => s.close()));
    await context.close();
  });

  test("hostile input #10: a signed-out session's stream ends at its next poll", async ({ browser }) => {
    const { context, page, cookie } = await session(browser);
    const stream = await Stream.open(streamUrl(), cookie);
    expect((await stream.next())?.event, "the first poll's frame").toBe("new");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/sign-in/);
    // A poll already under way when the session went may still answer; the next one ends the stream.
    const after = await stream.until(1);
    expect(after.filter((f) => f.event !== "end").length).toBeLessThanOrEqual(1);
    expect(endOf(after)?.data).toBe(JSON.stringify({ code: "signed_out", reason: "The session was signed out" }));
    expect(await stream.next(), "the stream is closed").toBeNull();
    await context.close();
  });

  test("hostile input #10: a search past the length limit is a 400 with a detail in the API and a readable message on the page", async ({
    request,
    browser,
  }) => {
    const long = "[".repeat(STREAM_LIMITS.maxQueryLength + 1);
    const detail = { detail: `The search is longer than ${STREAM_LIMITS.maxQueryLength} characters` };
    const client = apiAt(request, SERVERS.main.url, token);
    expect(
      await expectJson(await client.get(`/projects/${project.org}/${project.slug}/issues/?query=${encodeURIComponent(long)}`), 400, "project issues"),
    ).toEqual(detail);
    await expectJson(await client.get(`/projects/${project.org}/${project.slug}/issues/?query=${encodeURIComponent(long.slice(1))}`), 200, "at the limit");
    const { context, page, cookie } = await session(browser);
    const stream = await fetch(`${streamUrl()}&query=${encodeURIComponent(long)}`, { headers: { cookie } });
    expect([stream.status, await stream.json()]).toEqual([400, detail]);

    const max = (locale: string) => new Intl.NumberFormat(locale).format(STREAM_LIMITS.maxQueryLength);
    await page.goto(`./en/orgs/${project.org}/issues?project=${project.slug}&query=${encodeURIComponent(long)}`);
    await expect(page.getByTestId("search-error")).toHaveText(`This search is longer than ${max("en")} characters. Shorten it and search again.`);
    await page.goto(`./de/orgs/${project.org}/issues?project=${project.slug}&query=${encodeURIComponent(long)}`);
    await expect(page.getByTestId("search-error")).toHaveText(`Diese Suche ist länger als ${max("de")} Zeichen. Kürzen Sie sie und suchen Sie erneut.`);
    await context.close();
  });
});
