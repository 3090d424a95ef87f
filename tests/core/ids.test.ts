// Ids and cursors from requests, on SQLite and on PostgreSQL (whose id columns are 32-bit integers): an id that no
// row can have is not found, or a 400 where Sentry answers one, and a cursor of the wrong shape for its list is a 400
// "Invalid cursor parameter"; none of them reaches a query. Cursors the lists hand out still page through them.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { isAppError } from "../../src/core/errors";
import { addComment, listComments } from "../../src/core/issue-comments";
import { getIssue, listIssueEvents, listProjectIssues, updateIssue } from "../../src/core/issues";
import { createOrganization } from "../../src/core/organizations";
import { type CursorKind, pageRequest } from "../../src/core/pagination";
import { createProject, listAllProjects } from "../../src/core/projects";
import { createRelease, listReleases } from "../../src/core/releases";
import { parseId } from "../../src/core/schemas";
import { createTeam } from "../../src/core/teams";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { OpenDbOptions } from "../../src/storage/db";
import { toErrorResponse } from "../../src/web/api/errors";
import { outcome, type TestCore, testCore, uniq } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";

const cursor = (key: string) => Buffer.from(key, "utf8").toString("base64url");
const TOO_BIG = ["2147483648", "9999999999", "99999999999999999999"];

test("parseId: decimal digits or a number, from 1 to the largest id an id column holds", () => {
  assert.deepEqual(["1", "007", "2147483647", 42, 2147483647].map(parseId), [1, 7, 2147483647, 42, 2147483647]);
  for (const bad of [...TOO_BIG, 2147483648, 9999999999, "0", 0, -1, "-1", "1.5", 1.5, "1e3", " 1", "", "0x10", null, undefined, {}, [1]]) {
    assert.equal(parseId(bad), null, JSON.stringify(bad));
  }
});

test("a bad cursor is a 400 with Sentry's detail", async () => {
  let err: unknown;
  try {
    pageRequest("id", { cursor: cursor("9999999999") });
  } catch (e) {
    err = e;
  }
  assert.ok(isAppError(err));
  const response = toErrorResponse(err);
  assert.equal(response.status, 400);
  assert.equal(((await response.json()) as { detail: string }).detail, "Invalid cursor parameter");
});

function suite(name: string, options: () => Promise<OpenDbOptions & { drop?: () => Promise<void> }>) {
  describe(`ids and cursors (${name})`, () => {
    let t: TestCore;
    let drop: (() => Promise<void>) | undefined;
    let w: Awaited<ReturnType<typeof world>>;
    before(async () => {
      const o = await options();
      drop = o.drop;
      t = await testCore(o);
      w = await world();
    });
    after(async () => {
      await t.close();
      await drop?.();
    });

    let n = 0;
    const event = (projectId: number, hash: string): DigestedEvent => ({
      projectId,
      eventId: randomBytes(16).toString("hex"),
      type: "error",
      receivedAt: `2026-11-23T10:00:0${n++ % 10}.000Z`,
      timestamp: "2026-11-23T10:00:00.000Z",
      platform: "python",
      level: "error",
      title: `E ${hash}`,
      message: "",
      culprit: "",
      release: null,
      environment: null,
      size: 2,
      data: "{}",
      category: "error",
      grouping: { config: "c", hashes: [hash] },
      metadata: "{}",
      userKey: null,
      tags: [],
    });

    /** An organization with a team's project, three issues (the first with two events and two comments), two releases. */
    async function world() {
      const ctx = t.as(await t.accounts.createUser({ email: `${uniq("u")}@example.com`, password: "password123", name: "U" }));
      const org = await createOrganization(ctx, { name: uniq("Org") });
      const team = await createTeam(ctx, org.slug, { slug: uniq("team") });
      const created = await createProject(ctx, org.slug, { name: uniq("Project"), team: team.slug });
      const project = (await t.store.getProjectBySlug((await t.store.getOrganizationBySlug(org.slug))!.id, created.slug))!;
      const events = [event(project.id, "a"), event(project.id, "a"), event(project.id, "b"), event(project.id, "c")];
      await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events });
      const issue = (await t.store.listIssues(project.id, { page: { limit: 10 } })).items.find((i) => i.title === "E a")!;
      for (const text of ["first", "second"]) await addComment(ctx, issue.id, { text });
      for (const version of ["ids@1", "ids@2"]) await createRelease(ctx, org.slug, null, { version, projects: [project.slug] });
      return { ctx, org: org.slug, project, issue };
    }

    /** Every item of a list, one per page, following the cursors it hands out through pageRequest. */
    async function all<T>(kind: CursorKind, list: (page: ReturnType<typeof pageRequest>) => Promise<{ items: T[]; nextCursor: string | null }>): Promise<T[]> {
      const out: T[] = [];
      let next: string | null = null;
      do {
        const page = await list(pageRequest(kind, { cursor: next, limit: "1" }));
        out.push(...page.items);
        next = page.nextCursor;
      } while (next && out.length < 50);
      return out;
    }

    test("an issue id beyond the id column is not found, as a missing one; 400 as assignee team", async () => {
      for (const id of [...TOO_BIG, 2147483648, 9999999999, "999999999", 999999999]) {
        assert.equal(await outcome(() => getIssue(w.ctx, id)), "not_found", String(id));
      }
      for (const team of ["team:2147483648", "team:9999999999", "team:999999999", "team:0", "team:x"]) {
        assert.equal(await outcome(() => updateIssue(w.ctx, w.issue.id, { assignedTo: team })), "bad_request", team);
      }
      assert.equal((await getIssue(w.ctx, String(w.issue.id))).issue.id, w.issue.id);
    });

    test("release projects by an id beyond the id column are a 400 naming the field, in the body and in ?project=", async () => {
      for (const id of [2147483648, 9999999999, "2147483648"]) {
        await assert.rejects(
          createRelease(w.ctx, w.org, null, { version: uniq("v"), projects: [id] }),
          (e) => isAppError(e) && e.code === "bad_request" && !!e.fields?.projects,
          String(id),
        );
      }
      const list = (projectIds: string[]) =>
        listReleases(w.ctx, w.org, null, { query: null, projectIds, health: false, environments: [], page: { limit: 10 } });
      for (const id of [...TOO_BIG, "999999999"]) assert.equal(await outcome(() => list([id])), "bad_request", id);
      assert.equal((await list([String(w.project.id)])).items.length, 2);
    });

    test("cursors whose id is beyond the id column, or of another list's shape, are 400s", async () => {
      const issues = (c: string) => listProjectIssues(w.ctx, w.org, w.project.slug, { query: "", sort: "date", page: pageRequest("sort|id", { cursor: c }) });
      const events = (c: string) => listIssueEvents(w.ctx, w.issue.id, pageRequest("id", { cursor: c }));
      const comments = (c: string) => listComments(w.ctx, w.issue.id, pageRequest("id", { cursor: c }));
      const releases = (c: string) =>
        listReleases(w.ctx, w.org, null, { query: null, projectIds: [], health: false, environments: [], page: pageRequest("time|id", { cursor: c }) });
      const projects = (c: string) => listAllProjects(w.ctx, pageRequest("slug:id", { cursor: c }));
      const bad: [string, (c: string) => Promise<unknown>, string[]][] = [
        ["issues", issues, ["2026-11-23T10:00:00.000Z|2147483648", "5|99999999999", "2026-11-23T10:00:00.000Z|0", "2026-11-23T10:00:00.000Z", "abc", "abc|1"]],
        ["events", events, [...TOO_BIG, "0", "abc", "1|2"]],
        ["comments", comments, [...TOO_BIG, "0", "abc"]],
        [
          "releases",
          releases,
          ["abc", "2026-11-23T10:00:00.000Z|2147483648", "2026-11-23T10:00:00.000Z|", "2026-11-23T10:00:00.000Z|NaN", "5|1", "2026-11-23T10:00:00.000Z"],
        ],
        ["projects", projects, ["web:2147483648", "web:9999999999", "web:", "web"]],
      ];
      for (const [what, list, keys] of bad) {
        for (const key of keys) {
          await assert.rejects(
            async () => list(cursor(key)),
            (e) => isAppError(e) && e.code === "bad_request" && e.message === "Invalid cursor parameter",
            `${what}: ${key}`,
          );
        }
      }
      // A well-formed id that no row has is an ordinary position: the items before it.
      assert.equal((await events(cursor("999999999"))).page.items.length, 2);
      assert.equal((await comments(cursor("999999999"))).items.length, 2);
      assert.equal((await issues(cursor("2999-01-01T00:00:00.000Z|999999999"))).page.items.length, 3);
      assert.equal((await releases(cursor("2999-01-01T00:00:00.000Z|999999999"))).items.length, 2);
    });

    test("the cursors the lists hand out page through them", async () => {
      for (const sort of ["date", "new", "freq", "user"]) {
        const titles = await all("sort|id", async (page) => (await listProjectIssues(w.ctx, w.org, w.project.slug, { query: "", sort, page })).page);
        assert.deepEqual(titles.map((i) => i.title).sort(), ["E a", "E b", "E c"], sort);
      }
      assert.equal((await all("id", async (page) => (await listIssueEvents(w.ctx, w.issue.id, page)).page)).length, 2);
      assert.equal((await all("id", (page) => listComments(w.ctx, w.issue.id, page))).length, 2);
      const releases = await all("time|id", (page) => listReleases(w.ctx, w.org, null, { query: null, projectIds: [], health: false, environments: [], page }));
      assert.deepEqual(releases.map((r) => r.release.version).sort(), ["ids@1", "ids@2"]);
      assert.ok((await all("slug:id", (page) => listAllProjects(w.ctx, page))).some((p) => p.id === w.project.id));
    });
  });
}

suite("SQLite", async () => ({ dialect: "sqlite", file: ":memory:" }));
suite("PostgreSQL", async () => {
  const fresh = await freshPgDatabase(`ids_${randomBytes(4).toString("hex")}`);
  return { dialect: "postgres", url: fresh.url, drop: fresh.drop };
});
