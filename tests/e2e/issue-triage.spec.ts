// Issue triage over Sentry's web API, against the production build with events sent to the real intake: the list's
// sorts with Link pagination, environment= and assigned: searches, tags and tag values, assignment (single and bulk),
// comments and who may change them, events by id with their neighbours; a member against a non-member.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { api, cli, freshClientAddress, OWNER_STATE } from "./helpers";
import { createProject, expectJson, mainApi, sleep, type TestProject, unique } from "./ingest-helpers";
import { OWNER, SERVERS } from "./servers";

type Issue = {
  id: string;
  title: string;
  count: string;
  userCount: number;
  numComments: number;
  assignedTo: { type: string; id: string; name: string; email?: string } | null;
  stats: Record<string, [number, number][]>;
};

let project: TestProject;
let member: { email: string; token: string };
let outsider: { token: string };
let titles: { a: string; b: string; c: string };
const eventIds: string[] = [];

const hex = () => crypto.randomUUID().replace(/-/g, "");

/** Sends one event to the project's intake as an SDK would; returns its id. */
async function send(payload: Record<string, unknown>): Promise<string> {
  const id = hex();
  const url = `${SERVERS.main.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`;
  const body = `{"event_id":"${id}"}\n{"type":"event"}\n${JSON.stringify({ event_id: id, platform: "python", level: "error", ...payload })}\n`;
  const r = await fetch(url, { method: "POST", body });
  expect(r.status).toBe(200);
  return id;
}

const seconds = (ago: number) => Date.now() / 1000 - ago;
const issuesPath = () => `/projects/${project.org}/${project.slug}/issues/`;

/** Every issue of a list, following the Link header's next cursor page by page. */
async function allPages(request: APIRequestContext, query: string): Promise<Issue[]> {
  const a = api(request);
  const out: Issue[] = [];
  let cursor = "";
  for (let i = 0; i < 20; i++) {
    const r = await a.get(`${issuesPath()}?${query}&per_page=1${cursor ? `&cursor=${cursor}` : ""}`);
    out.push(...(await expectJson<Issue[]>(r, 200, query)));
    const next = /rel="next"; results="(true|false)"; cursor="([^"]*)"/.exec(r.headers()["link"] ?? "");
    if (!next || next[1] === "false") return out;
    cursor = next[2]!;
  }
  throw new Error("too many pages");
}

test.describe("issue triage API", () => {
  test.use({ storageState: OWNER_STATE });

  test.beforeAll(async ({ browser, request }) => {
    project = await createProject(mainApi(request), { platform: "python" });
    const memberEmail = `${unique("member")}@example.com`;
    const outsiderEmail = `${unique("outsider")}@example.com`;
    for (const email of [memberEmail, outsiderEmail]) cli("main", "createuser", "--email", email, "--password", "member-password", "--no-input");
    member = { email: memberEmail, token: cli("main", "createtoken", "--email", memberEmail) };
    outsider = { token: cli("main", "createtoken", "--email", outsiderEmail) };
    // Members join as people do: an owner invites the address in the dashboard, and the member, who has an account
    // already, opens the link signed out and joins with that account's password.
    const page = await (await browser.newContext({ storageState: OWNER_STATE })).newPage();
    await page.goto(`${SERVERS.main.url}/en/orgs/${project.org}/settings/members`);
    const form = page.getByTestId("create-invite-form");
    await form.getByLabel("E-mail").fill(memberEmail);
    await form.getByLabel("Role").selectOption("member");
    await form.getByRole("button", { name: "Invite" }).click();
    const link = (await form.getByTestId("result-link").innerText()).trim();
    const guest = await browser.newPage({ storageState: { cookies: [], origins: [] }, extraHTTPHeaders: { "x-forwarded-for": freshClientAddress() } });
    await guest.goto(link);
    await guest.getByTestId("invite-join-form").getByLabel("Password").fill("member-password");
    await guest.getByTestId("invite-join-form").getByRole("button", { name: "Join" }).click();
    await expect(guest).toHaveURL(new RegExp(`/en/orgs/${project.org}$`));
    await guest.close();
    await page.reload();
    await expect(page.getByTestId("member-table")).toContainText(memberEmail);
    await page.context().close();

    // Three issues whose sorts disagree: by last seen B, A, C; first seen B, C, A; events A, B, C; users B, A, C.
    titles = { a: unique("alpha failure"), b: unique("beta failure"), c: unique("gamma failure") };
    eventIds.push(
      await send({ message: titles.a, timestamp: seconds(400), environment: "production", user: { id: "u1" }, tags: { browser: "Chrome" } }),
      await send({ message: titles.a, timestamp: seconds(300), environment: "production", user: { id: "u1" }, tags: { browser: "Chrome" } }),
      await send({ message: titles.a, timestamp: seconds(50), environment: "production", user: { id: "u1" }, tags: { browser: "Firefox" } }),
    );
    await send({ message: titles.b, timestamp: seconds(200), environment: "staging", user: { id: "u1" } });
    await send({ message: titles.b, timestamp: seconds(10), environment: "staging", user: { id: "u2" } });
    await send({ message: titles.c, timestamp: seconds(300), environment: "production" });
    for (let i = 0; i < 80; i++) {
      const issues = await expectJson<Issue[]>(await api(request).get(`${issuesPath()}?query=`), 200, "list");
      if (issues.reduce((n, x) => n + Number(x.count), 0) === 6) return;
      await sleep(250);
    }
    throw new Error("the digest did not make the issues in time");
  });

  test("sorts date, new, freq and user page through every issue with Link cursors, in Sentry's order", async ({ request }) => {
    const name = (i: Issue) => (i.title === titles.a ? "A" : i.title === titles.b ? "B" : "C");
    const order = async (sort: string) => (await allPages(request, `query=&sort=${sort}`)).map(name).join("");
    expect(await order("date")).toBe("BAC");
    expect(await order("new")).toBe("BCA");
    expect(await order("freq")).toBe("ABC");
    expect(await order("user")).toBe("BAC");
    const list = await expectJson<Issue[]>(await api(request).get(`${issuesPath()}?query=&sort=user&statsPeriod=14d`), 200, "user sort");
    expect(list.map((i) => [i.userCount, i.count])).toEqual([
      [2, "2"],
      [1, "3"],
      [0, "1"],
    ]);
    expect(list[0]!.stats["14d"]).toHaveLength(14);
    expect(list[0]!.stats["14d"]!.reduce((n, [, c]) => n + c, 0)).toBe(2);
    expect((await api(request).get(`${issuesPath()}?sort=priority`)).status()).toBe(400);
    expect((await api(request).get(`${issuesPath()}?statsPeriod=1y`)).status()).toBe(400);
    const staging = await expectJson<Issue[]>(await api(request).get(`${issuesPath()}?query=&environment=staging`), 200, "environment=");
    expect(staging.map(name)).toEqual(["B"]);
    const both = await expectJson<Issue[]>(
      await api(request).get(`${issuesPath()}?query=environment:production&environment=production&sort=freq`),
      200,
      "environment",
    );
    expect(both.map(name)).toEqual(["A", "C"]);
  });

  test("tags with their top values; one key; its values in pages", async ({ request }) => {
    const a = api(request);
    const [issue] = await expectJson<Issue[]>(await a.get(`${issuesPath()}?query=${encodeURIComponent(titles.a)}`), 200, "search");
    const tags = await expectJson<
      {
        key: string;
        name: string;
        totalValues: number;
        uniqueValues: number;
        topValues: { key: string; name: string; value: string; count: number; firstSeen: string; lastSeen: string }[];
      }[]
    >(await a.get(`/issues/${issue!.id}/tags/`), 200, "tags");
    const browser = tags.find((t) => t.key === "browser");
    expect(browser).toMatchObject({ key: "browser", name: "Browser", totalValues: 3, uniqueValues: 2 });
    expect(browser!.topValues.map((v) => [v.key, v.value, v.name, v.count])).toEqual([
      ["browser", "Chrome", "Chrome", 2],
      ["browser", "Firefox", "Firefox", 1],
    ]);
    expect(browser!.topValues[0]!.firstSeen <= browser!.topValues[0]!.lastSeen).toBe(true);
    expect(tags.find((t) => t.key === "environment")?.topValues.map((v) => v.value)).toEqual(["production"]);
    expect(await expectJson(await a.get(`/issues/${issue!.id}/tags/browser/`), 200, "one tag")).toEqual(browser);
    const first = await a.get(`/issues/${issue!.id}/tags/browser/values/?per_page=1`);
    expect((await expectJson<{ value: string }[]>(first, 200, "values")).map((v) => v.value)).toEqual(["Chrome"]);
    const cursor = /rel="next"; results="true"; cursor="([^"]+)"/.exec(first.headers()["link"] ?? "")?.[1];
    expect(cursor).toBeTruthy();
    expect(
      (await expectJson<{ value: string }[]>(await a.get(`/issues/${issue!.id}/tags/browser/values/?per_page=1&cursor=${cursor}`), 200, "page 2")).map(
        (v) => v.value,
      ),
    ).toEqual(["Firefox"]);
    expect((await a.get(`/issues/${issue!.id}/tags/nosuchkey/`)).status()).toBe(404);
    expect((await api(request, outsider.token).get(`/issues/${issue!.id}/tags/`)).status()).toBe(404);
  });

  test("assignment: a member assigns to people and the project's team, single and bulk; assigned: searches; non-members get 404", async ({ request }) => {
    const owner = api(request);
    const m = api(request, member.token);
    const issues = await expectJson<Issue[]>(await owner.get(`${issuesPath()}?query=&sort=freq`), 200, "list");
    const [a, b, c] = issues as [Issue, Issue, Issue];
    const toOwner = await expectJson<Issue>(await m.put(`/issues/${a.id}/`, { assignedTo: OWNER.email }), 200, "assign by e-mail");
    expect(toOwner.assignedTo).toMatchObject({ type: "user", name: OWNER.name, email: OWNER.email });
    const bad = await m.put(`/issues/${a.id}/`, { assignedTo: "nobody@example.com" });
    expect(bad.status()).toBe(400);
    expect((await bad.json()).detail).toContain("not a member");
    expect((await api(request, outsider.token).put(`/issues/${a.id}/`, { assignedTo: "" })).status()).toBe(404);

    const teams = await expectJson<{ id: string; slug: string }[]>(await owner.get(`/organizations/${project.org}/teams/`), 200, "teams");
    const team = teams.find((t) => t.slug === project.team)!;
    const bulk = await m.put(`${issuesPath()}?id=${b.id}&id=${c.id}`, { assignedTo: `team:${team.id}` });
    expect(await expectJson(bulk, 200, "bulk assign")).toEqual({ assignedTo: { type: "team", id: team.id, name: team.slug } });
    const search = async (client: ReturnType<typeof api>, q: string) =>
      (await expectJson<Issue[]>(await client.get(`${issuesPath()}?query=${encodeURIComponent(q)}&sort=freq`), 200, q)).map((i) => i.id);
    expect(await search(owner, "assigned:me")).toEqual([a.id]);
    expect(await search(m, "assigned:me")).toEqual([]);
    expect(await search(m, `assigned:${OWNER.email}`)).toEqual([a.id]);
    expect(await search(owner, `assigned:#${team.slug}`)).toEqual([b.id, c.id]);
    expect(await search(owner, "is:assigned")).toEqual([a.id, b.id, c.id]);
    await m.put(`/issues/${c.id}/`, { assignedTo: null });
    expect(await search(owner, "is:unassigned")).toEqual([c.id]);
    expect(await search(owner, "assigned:[me, none]")).toEqual([a.id, c.id]);

    const detail = await expectJson<Issue & { activity: { type: string; user: { email: string } | null; data: Record<string, unknown> }[] }>(
      await owner.get(`/issues/${c.id}/`),
      200,
      "detail",
    );
    expect(detail.assignedTo).toBeNull();
    expect(detail.activity.map((x) => x.type).slice(0, 2)).toEqual(["unassigned", "assigned"]);
    expect(detail.activity[1]).toMatchObject({ user: { email: member.email }, data: { assigneeType: "team", assignee: team.id } });
    expect(detail.stats["30d"]).toHaveLength(30);
  });

  test("comments: a member writes and edits their own; others cannot edit; an owner deletes; non-members get 404", async ({ request }) => {
    const owner = api(request);
    const m = api(request, member.token);
    const [issue] = await expectJson<Issue[]>(await owner.get(`${issuesPath()}?query=&sort=freq`), 200, "list");
    const path = `/issues/${issue!.id}/comments/`;
    const created = await expectJson<{ id: string; type: string; data: { text: string }; user: { email: string }; dateCreated: string }>(
      await m.post(path, { text: "Seen in checkout" }),
      201,
      "comment",
    );
    expect(created).toMatchObject({ type: "note", data: { text: "Seen in checkout" }, user: { email: member.email } });
    expect((await m.post(path, { text: "" })).status()).toBe(400);
    expect((await m.post(path, { text: "x".repeat(10_001) })).status()).toBe(400);
    expect((await api(request, outsider.token).post(path, { text: "hi" })).status()).toBe(404);
    expect((await api(request, outsider.token).get(path)).status()).toBe(404);
    await owner.post(path, { text: "Owner here" });
    const listed = await expectJson<{ data: { text: string } }[]>(await owner.get(path), 200, "comments");
    expect(listed.map((c) => c.data.text)).toEqual(["Owner here", "Seen in checkout"]);
    expect((await owner.put(`${path}${created.id}/`, { text: "rewritten" })).status()).toBe(403);
    expect(await expectJson(await m.put(`${path}${created.id}/`, { text: "Seen in checkout, twice" }), 200, "edit")).toMatchObject({
      data: { text: "Seen in checkout, twice" },
    });
    expect((await expectJson<Issue>(await owner.get(`/issues/${issue!.id}/`), 200, "detail")).numComments).toBe(2);
    const ownerComment = listed[0] as unknown as { id: string };
    expect((await m.delete(`${path}${ownerComment.id}/`)).status()).toBe(403);
    expect((await owner.delete(`${path}${created.id}/`)).status()).toBe(204);
    expect((await owner.delete(`${path}${created.id}/`)).status()).toBe(404);
    expect((await expectJson<Issue[]>(await owner.get(`${issuesPath()}?query=&sort=freq`), 200, "list"))[0]!.numComments).toBe(1);
  });

  test("an event by id, from the issue and from the project, with nextEventID and previousEventID", async ({ request }) => {
    const a = api(request);
    const [first, second, third] = eventIds as [string, string, string];
    const [issue] = await expectJson<Issue[]>(await a.get(`${issuesPath()}?query=&sort=freq`), 200, "list");
    const middle = await expectJson<{ eventID: string; groupID: string; nextEventID: string | null; previousEventID: string | null }>(
      await a.get(`/issues/${issue!.id}/events/${second}/`),
      200,
      "event",
    );
    expect(middle).toMatchObject({ eventID: second, groupID: issue!.id, nextEventID: third, previousEventID: first });
    expect(await expectJson(await a.get(`/projects/${project.org}/${project.slug}/events/${first}/`), 200, "project event")).toMatchObject({
      eventID: first,
      nextEventID: second,
      previousEventID: null,
    });
    expect(await expectJson(await a.get(`/issues/${issue!.id}/events/latest/`), 200, "latest")).toMatchObject({
      eventID: third,
      nextEventID: null,
      previousEventID: second,
    });
    expect((await a.get(`/issues/${issue!.id}/events/${hex()}/`)).status()).toBe(404);
    expect((await a.get(`/issues/${issue!.id}/events/not-an-id/`)).status()).toBe(404);
    expect((await api(request, outsider.token).get(`/projects/${project.org}/${project.slug}/events/${first}/`)).status()).toBe(404);
  });
});
