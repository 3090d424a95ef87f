// A person's data (issue 18): hostile search input is refused with a clear 400 before anything is read; an
// organization token may not search at all.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { ERROR_STATUS, isAppError } from "../../src/core/errors";
import { createOrganization } from "../../src/core/organizations";
import { erasePersonData, exportPersonData, findPersonEvents } from "../../src/core/personal-data";
import { createProject, updateProject } from "../../src/core/projects";
import { findPersonEverywhere } from "../../src/core/personal-data-instance";
import { type TestCore, testCore, uniq } from "../helpers/core";

let t: TestCore;
before(async () => {
  t = await testCore();
});
after(async () => t.close());

async function status(run: () => Promise<unknown>): Promise<number | "ok"> {
  try {
    await run();
    return "ok";
  } catch (err) {
    if (isAppError(err)) return ERROR_STATUS[err.code];
    throw err;
  }
}

describe("issue 18 personal data: hostile search input", () => {
  const HOSTILE: [string, unknown][] = [
    ["a NUL byte", { field: "email", value: "ann\u0000@example.com" }],
    ["a 1 MB string", { field: "email", value: "a".repeat(1 << 20) }],
    ["a newline", { field: "id", value: "42\n" }],
    ["an empty value", { field: "id", value: "" }],
    ["only spaces", { field: "id", value: "   " }],
    ["an unknown field", { field: "password", value: "x" }],
    ["a value that is not a string", { field: "id", value: { $ne: null } }],
    ["an array of values", { field: "id", value: ["1", "2"] }],
    ["no input at all", null],
  ];
  for (const [name, input] of HOSTILE) {
    test(`${name} → 400 for find, export and erase`, async () => {
      const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" });
      const org = await createOrganization(t.as(owner), { name: uniq("Org") });
      for (const run of [findPersonEvents, exportPersonData, erasePersonData])
        assert.equal(await status(() => run(t.as(owner), org.slug, input)), 400, run.name);
    });
  }

  test("a value of exactly the longest length is searched, and finds nothing", async () => {
    const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" });
    const org = await createOrganization(t.as(owner), { name: uniq("Org") });
    const r = await findPersonEvents(t.as(owner), org.slug, { field: "username", value: "ä".repeat(200) });
    assert.deepEqual(r.matches, []);
  });
});

describe("issue 18 personal data: a project's own retention", () => {
  test("shorter than the instance's only; empty goes back to the instance's; bad values are a 400", async () => {
    const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" });
    const org = await createOrganization(t.as(owner), { name: uniq("Org") });
    const project = await createProject(t.as(owner), org.slug, { name: uniq("P") });
    const set = (retentionDays: unknown) => updateProject(t.as(owner), org.slug, project.slug, { retentionDays }, { instanceRetentionDays: 60 });
    assert.equal((await set(30)).retentionDays, 30);
    assert.equal((await set(null)).retentionDays, null);
    for (const bad of [60, 61, 0, -1, 1.5, "30", 1e9]) assert.equal(await status(() => set(bad)), 400, String(bad));
    assert.equal((await set(59)).retentionDays, 59);
  });
});

describe("issue 18 personal data: the install-wide search", () => {
  test("is the superusers' alone: an organization's owner gets not found; hostile input is a 400 for a superuser", async () => {
    const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" });
    await createOrganization(t.as(owner), { name: uniq("Org") });
    assert.equal(await status(() => findPersonEverywhere(t.as(owner), { field: "id", value: "42" })), 404);
    const su = await t.accounts.createUser({ email: `${uniq("su")}@example.com`, password: "password123", name: "S", isSuperuser: true });
    assert.equal(await status(() => findPersonEverywhere(t.as(su), { field: "id", value: "x\u0000" })), 400);
    assert.equal(await status(() => findPersonEverywhere(t.as(su), { field: "id", value: "42" })), "ok");
  });
});
