// Dates from requests fall in the years 0001 to 9999 (Sentry's range): a release's dateReleased and dateStarted, an
// issue's ignoreUntil and the stats API's since and until outside it are 400s naming the field, never stored or a 500.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { CoreContext } from "../../src/core/context";
import { isAppError } from "../../src/core/errors";
import { parseStatusUpdate } from "../../src/core/issue-status";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { createRelease, updateRelease } from "../../src/core/releases";
import { projectStatSeries } from "../../src/core/stats";
import { serializeRelease } from "../../src/web/api/release-serializers";
import { type TestCore, testCore, uniq } from "../helpers/core";

const OUTSIDE = [
  "0000-01-01T00:00:00Z",
  "0000-12-31T23:59:59.999Z",
  "0001-01-01T00:30:00+01:00",
  "9999-12-31T23:59:59-01:00",
  "+275760-01-01T00:00:00Z",
  "+275760-01-01",
  "0000-01-01",
  "10000-01-01T00:00:00Z",
];
const INSIDE: [string, string][] = [
  ["0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"],
  ["9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999Z"],
  ["2026-11-23T10:00:00+01:00", "2026-11-23T09:00:00.000Z"],
];

/** The field a 400 names, or what else happened. */
async function rejectedField(run: () => unknown): Promise<string> {
  try {
    await run();
    return "accepted";
  } catch (e) {
    return isAppError(e) && e.code === "bad_request" ? Object.keys(e.fields ?? {}).join(",") : String(e);
  }
}

/** An owner's organization with one project. */
async function world(t: TestCore): Promise<{ ctx: CoreContext; org: string; project: string }> {
  const ctx = t.as(await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" }));
  const org = (await createOrganization(ctx, { name: uniq("Org") })).slug;
  return { ctx, org, project: (await createProject(ctx, org, { name: uniq("Web") })).slug };
}

describe("dates from requests", () => {
  let t: TestCore;
  let w: Awaited<ReturnType<typeof world>>;
  before(async () => {
    t = await testCore();
    w = await world(t);
  });
  after(() => t.close());

  test("a release's dateReleased and dateStarted, on create and update", async () => {
    await createRelease(w.ctx, w.org, w.project, { version: "dates@1" });
    for (const field of ["dateReleased", "dateStarted"]) {
      for (const value of OUTSIDE) {
        assert.equal(
          await rejectedField(() => createRelease(w.ctx, w.org, w.project, { version: uniq("d"), [field]: value })),
          field,
          `create ${field}=${value}`,
        );
        assert.equal(await rejectedField(() => updateRelease(w.ctx, w.org, w.project, "dates@1", { [field]: value })), field, `update ${field}=${value}`);
      }
    }
    for (const [value, stored] of INSIDE) {
      const body = serializeRelease(await updateRelease(w.ctx, w.org, w.project, "dates@1", { dateReleased: value, dateStarted: value }));
      assert.deepEqual([body.dateReleased, body.dateStarted], [stored, stored], value);
    }
  });

  test("an issue's ignoreUntil", () => {
    for (const value of OUTSIDE) {
      assert.throws(
        () => parseStatusUpdate({ status: "ignored", statusDetails: { ignoreUntil: value } }),
        (e) => isAppError(e) && !!e.fields?.["statusDetails.ignoreUntil"],
        value,
      );
    }
    assert.equal(
      parseStatusUpdate({ status: "ignored", statusDetails: { ignoreUntil: "9999-12-31T00:00:00Z" } })?.statusDetails.ignoreUntil,
      "9999-12-31T00:00:00Z",
    );
  });

  test("the stats API's since and until (epoch seconds)", async () => {
    for (const field of ["since", "until"]) {
      for (const value of ["253402300800", "99999999999999", "1e300"]) {
        assert.equal(await rejectedField(() => projectStatSeries(w.ctx, w.org, w.project, { [field]: value })), field, `${field}=${value}`);
      }
    }
    assert.deepEqual(
      await projectStatSeries(w.ctx, w.org, w.project, { since: "253402297200", until: "253402300799" }),
      [[253402297200, 0]],
      "the last hour of 9999",
    );
  });
});
