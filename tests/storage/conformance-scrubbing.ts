// Data scrubbing settings (storage/scrubbing-ports.ts), run by conformance.ts on each dialect: an organization's and a
// project's options kept apart, read back as stored, and both read for many projects in one call, as the digest does.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { User } from "../../src/storage/ports";
import { type TestCore, uniq } from "../helpers/core";

export function scrubbingConformance(get: () => { t: TestCore; alice: User }) {
  test("data scrubbing settings: per organization and per project, read together for the digest", async () => {
    const { t, alice } = get();
    const org = await t.store.createOrganization({ slug: uniq("scrub"), name: "S", ownerUserId: alice.id });
    const a = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("a"), name: "A", platform: null });
    const b = await t.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("b"), name: "B", platform: null });
    assert.equal(await t.store.getDataScrubbing({ projectId: a.id }), null, "never set: null (the defaults)");
    await t.store.setDataScrubbing({ organizationId: org.id }, '{"dataScrubber":true}');
    await t.store.setDataScrubbing({ projectId: a.id }, '{"sensitiveFields":["iban"]}');
    assert.equal(await t.store.getDataScrubbing({ organizationId: org.id }), '{"dataScrubber":true}');
    assert.equal(await t.store.getDataScrubbing({ projectId: a.id }), '{"sensitiveFields":["iban"]}');
    assert.equal(await t.store.getDataScrubbing({ projectId: b.id }), null, "another project's stay its own");
    const both = await t.store.dataScrubbingOfProjects([a.id, b.id, 987_654_321]);
    assert.deepEqual(Object.fromEntries(both), {
      [a.id]: { organization: '{"dataScrubber":true}', project: '{"sensitiveFields":["iban"]}' },
      [b.id]: { organization: '{"dataScrubber":true}', project: null },
    });
    assert.equal((await t.store.dataScrubbingOfProjects([])).size, 0);
    await t.store.setDataScrubbing({ projectId: a.id }, null);
    assert.equal(await t.store.getDataScrubbing({ projectId: a.id }), null, "back to the defaults");
  });
}
