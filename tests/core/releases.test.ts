// The release service as the API routes call it: Sentry's idempotent create (201 or 208), version rules, project
// scoping, finalize and set-commits, and the serialized release object sentry-cli reads.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { isAppError } from "../../src/core/errors";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { createRelease, deleteRelease, getRelease, listReleases, updateRelease } from "../../src/core/releases";
import type { CoreContext } from "../../src/core/context";
import { serializeRelease } from "../../src/web/api/release-serializers";
import { type TestCore, testCore, uniq } from "../helpers/core";

const code = (e: unknown) => (isAppError(e) ? e.code : String(e));
const noHealth = { health: false, environments: [] };

describe("releases (core)", () => {
  let t: TestCore;
  let ctx: CoreContext;
  let org: string;
  let web: string;
  let api: string;
  before(async () => {
    t = await testCore();
    ctx = t.as(await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" }));
    org = (await createOrganization(ctx, { name: uniq("Org") })).slug;
    web = (await createProject(ctx, org, { name: uniq("Web") })).slug;
    api = (await createProject(ctx, org, { name: uniq("Api") })).slug;
  });
  after(() => t.close());

  test("create is idempotent: created, then not (208), then created again when it gains a project", async () => {
    const first = await createRelease(ctx, org, null, { version: "web@1.0.0+7", projects: [web], url: "https://ci.example/7" });
    assert.equal(first.created, true);
    const again = await createRelease(ctx, org, null, { version: "web@1.0.0+7", projects: [web], url: "https://other.example" });
    assert.equal(again.created, false);
    assert.equal(serializeRelease(again.view).url, "https://ci.example/7", "an existing release is returned as it was");
    const wider = await createRelease(ctx, org, api, { version: "web@1.0.0+7" });
    assert.equal(wider.created, true);
    const body = serializeRelease(wider.view);
    assert.deepEqual(
      body.projects.map((p) => p.slug),
      [api],
      "a project route shows the release as that project sees it",
    );
    const all = serializeRelease(await getRelease(ctx, org, null, "web@1.0.0+7", noHealth));
    assert.deepEqual(all.projects.map((p) => p.slug).sort(), [web, api].sort());
    assert.equal(all.version, "web@1.0.0+7");
    assert.equal(all.shortVersion, "web@1.0.0+7");
    assert.match(all.dateCreated, /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual([all.newGroups, all.commitCount, all.lastCommit, all.firstEvent, all.dateReleased], [0, 0, null, null, null]);
  });

  test("bad input is a 400 naming the field: Sentry's version rules, unknown projects, no projects", async () => {
    for (const version of ["", "a/b", "back\\slash", "two\nlines", "latest", ".", ".."]) {
      await assert.rejects(createRelease(ctx, org, null, { version, projects: [web] }), (e) => code(e) === "bad_request", JSON.stringify(version));
    }
    await assert.rejects(
      createRelease(ctx, org, null, { version: "x1", projects: ["nope"] }),
      (e) => isAppError(e) && e.code === "bad_request" && !!e.fields?.projects,
    );
    await assert.rejects(createRelease(ctx, org, null, { version: "x1" }), (e) => isAppError(e) && !!e.fields?.projects);
    await assert.rejects(createRelease(ctx, org, null, { version: 5, projects: [web] }), (e) => code(e) === "bad_request");
    await assert.rejects(updateRelease(ctx, org, null, "web@1.0.0+7", { dateReleased: "yesterday" }), (e) => code(e) === "bad_request");
  });

  test("archive and restore as sentry-cli posts them: an existing version, no projects, a status; 208 and the status shown", async () => {
    const ops = (await createProject(ctx, org, { name: uniq("Ops") })).slug;
    await createRelease(ctx, org, null, { version: "arch@1", projects: [ops] });
    assert.equal(serializeRelease(await getRelease(ctx, org, null, "arch@1", noHealth)).status, "open");
    const archived = await createRelease(ctx, org, null, { version: "arch@1", projects: [], status: "archived" });
    assert.equal(archived.created, false, "an existing release is answered 208");
    assert.equal(serializeRelease(archived.view).status, "archived");
    assert.deepEqual(
      serializeRelease(archived.view).projects.map((p) => p.slug),
      [ops],
      "its projects stay",
    );
    assert.equal(serializeRelease(await getRelease(ctx, org, ops, "arch@1", noHealth)).status, "archived");
    const restored = await createRelease(ctx, org, null, { version: "arch@1", projects: [], status: "open" });
    assert.deepEqual([restored.created, serializeRelease(restored.view).status], [false, "open"]);
    assert.equal(serializeRelease(await updateRelease(ctx, org, null, "arch@1", { status: "archived" })).status, "archived");
    await assert.rejects(
      createRelease(ctx, org, null, { version: "arch@2", projects: [], status: "archived" }),
      (e) => isAppError(e) && !!e.fields?.projects,
      "a new release still needs its projects",
    );
    await assert.rejects(createRelease(ctx, org, null, { version: "arch@1", projects: [], status: "deleted" }), (e) => isAppError(e) && !!e.fields?.status);
  });

  test("finalize and set-commits: dateReleased, refs and commits are kept and shown", async () => {
    await createRelease(ctx, org, web, { version: "web@2" });
    const released = "2026-11-20T08:00:00Z";
    const finalized = serializeRelease(await updateRelease(ctx, org, web, "web@2", { dateReleased: released }));
    assert.equal(finalized.dateReleased, "2026-11-20T08:00:00.000Z");
    const refs = serializeRelease(
      await updateRelease(ctx, org, null, "web@2", { refs: [{ repository: "acme/web", commit: "a1b2c3..d4e5f6", previousCommit: null }] }),
    );
    assert.deepEqual(
      [refs.commitCount, refs.lastCommit?.id, refs.lastCommit?.repository?.name, refs.dateReleased],
      [1, "d4e5f6", "acme/web", "2026-11-20T08:00:00.000Z"],
    );
    const commits = serializeRelease(
      await updateRelease(ctx, org, null, "web@2", {
        commits: [
          { id: "f00", repository: "acme/web", message: "Fix", author_name: "Ada", author_email: "ada@example.com" },
          { id: "e00", author_email: "ada@example.com" },
        ],
      }),
    );
    assert.deepEqual([commits.commitCount, commits.lastCommit?.id, commits.authors], [2, "f00", [{ name: "Ada", email: "ada@example.com" }]]);
    const cleared = serializeRelease(await updateRelease(ctx, org, null, "web@2", { refs: [], commits: [] }));
    assert.equal(cleared.commitCount, 0);
  });

  test("a release of another project, or none, is not found through a project route; delete", async () => {
    await createRelease(ctx, org, api, { version: "api-only@1" });
    await assert.rejects(getRelease(ctx, org, web, "api-only@1", noHealth), (e) => code(e) === "not_found");
    await assert.rejects(getRelease(ctx, org, null, "missing", noHealth), (e) => code(e) === "not_found");
    await assert.rejects(getRelease(ctx, org, null, "x".repeat(300), noHealth), (e) => code(e) === "not_found");
    await deleteRelease(ctx, org, "api-only@1");
    await assert.rejects(getRelease(ctx, org, api, "api-only@1", noHealth), (e) => code(e) === "not_found");
  });

  test("lists: newest first, by project (?project= ids), by part of the version", async () => {
    const page = { limit: 100 };
    const versions = async (projectSlug: string | null, q: { query?: string; projectIds?: string[] } = {}) =>
      (await listReleases(ctx, org, projectSlug, { query: q.query ?? null, projectIds: q.projectIds ?? [], health: false, environments: [], page })).items.map(
        (v) => v.release.version,
      );
    assert.deepEqual(await versions(web), ["web@2", "web@1.0.0+7"]);
    const apiId = String((await t.store.getProjectBySlug((await t.store.getOrganizationBySlug(org))!.id, api))!.id);
    assert.deepEqual(await versions(null, { projectIds: [apiId] }), ["web@1.0.0+7"]);
    assert.deepEqual(await versions(null, { query: "+7" }), ["web@1.0.0+7"]);
    await assert.rejects(versions(null, { projectIds: ["999999"] }), (e) => code(e) === "bad_request");
  });
});
