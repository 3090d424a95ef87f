// Data scrubbing settings (issue 18): Sentry's field names and defaults for organizations and projects, changes alone
// or beside the project's other fields, hostile input refused with a clear 400 before anything is stored, the
// screen's "[Method] [Type] from [Source]" rules written as Relay's JSON and read back, and where an event says it was
// scrubbed (its _meta) as the issue page lists it.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { organizationScrubbing, previewScrubbing, scrubbingOptionsOf, updateOrganizationScrubbing } from "../../src/core/data-scrubbing";
import { ERROR_STATUS, isAppError } from "../../src/core/errors";
import { createOrganization } from "../../src/core/organizations";
import { screenRules, scrubbedChanges, withRule, withoutRule } from "../../src/core/pii-rules";
import { createProject, getProject, updateProject } from "../../src/core/projects";
import { scrubbedFields } from "../../src/web/components/issue/scrubbed-fields";
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

async function world() {
  const owner = await t.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" });
  const c = t.as(owner);
  const org = await createOrganization(c, { name: uniq("Org") });
  const project = await createProject(c, org.slug, { name: uniq("P") });
  return { c, org, project };
}

describe("issue 18 data scrubbing settings", () => {
  test("defaults as Sentry's: a project scrubs the defaults, an organization requires nothing more", async () => {
    const { c, org, project } = await world();
    assert.deepEqual(await scrubbingOptionsOf(c, { projectId: project.id }), {
      dataScrubber: true,
      dataScrubberDefaults: true,
      sensitiveFields: [],
      safeFields: [],
      scrubIPAddresses: false,
      relayPiiConfig: null,
    });
    assert.deepEqual(await organizationScrubbing(c, org.slug), {
      dataScrubber: false,
      dataScrubberDefaults: false,
      sensitiveFields: [],
      safeFields: [],
      scrubIPAddresses: false,
      relayPiiConfig: null,
    });
  });

  test("a project's settings change alone, or beside its name, and keep what the change does not name", async () => {
    const { c, org, project } = await world();
    await updateProject(c, org.slug, project.slug, { sensitiveFields: [" iban ", "", "iban", "card_holder"], scrubIPAddresses: true });
    const renamed = await updateProject(c, org.slug, project.slug, { name: "Renamed", safeFields: ["business_email"] });
    assert.equal(renamed.name, "Renamed");
    assert.deepEqual(await scrubbingOptionsOf(c, { projectId: project.id }), {
      dataScrubber: true,
      dataScrubberDefaults: true,
      sensitiveFields: ["iban", "card_holder"],
      safeFields: ["business_email"],
      scrubIPAddresses: true,
      relayPiiConfig: null,
    });
    const rules = '{"rules":{"0":{"type":"email","redaction":{"method":"hash"}}},"applications":{"$user.email":["0"]}}';
    await updateProject(c, org.slug, project.slug, { relayPiiConfig: rules });
    assert.equal((await scrubbingOptionsOf(c, { projectId: project.id })).relayPiiConfig, rules);
    await updateProject(c, org.slug, project.slug, { relayPiiConfig: "" });
    assert.equal((await scrubbingOptionsOf(c, { projectId: project.id })).relayPiiConfig, null, "empty rules are no rules");
  });

  test("an organization's settings, changed alone or with its name", async () => {
    const { c, org } = await world();
    await updateOrganizationScrubbing(c, org.slug, { dataScrubber: true, sensitiveFields: ["ssn"] });
    assert.deepEqual((await organizationScrubbing(c, org.slug)).sensitiveFields, ["ssn"]);
    assert.equal((await organizationScrubbing(c, org.slug)).dataScrubber, true);
  });

  const HOSTILE: [string, unknown][] = [
    ["a boolean as a string", { dataScrubber: "yes" }],
    ["a field list that is a string", { sensitiveFields: "password" }],
    ["101 fields", { sensitiveFields: Array.from({ length: 101 }, (_, i) => `f${i}`) }],
    ["a 1 MB field name", { safeFields: ["a".repeat(1 << 20)] }],
    ["rules that are not JSON", { relayPiiConfig: "{nope" }],
    ["rules as an object instead of JSON text", { relayPiiConfig: { rules: {} } }],
    ["an unknown rule type", { relayPiiConfig: '{"rules":{"0":{"type":"nonsense","redaction":{"method":"remove"}}},"applications":{"$string":["0"]}}' }],
    ["a selector that does not parse", { relayPiiConfig: '{"applications":{"$string &&":["@ip"]}}' }],
    ["an application of a rule that does not exist", { relayPiiConfig: '{"applications":{"$string":["missing"]}}' }],
    [
      "a regular expression that does not compile",
      { relayPiiConfig: '{"rules":{"0":{"type":"pattern","pattern":"(","redaction":{"method":"remove"}}},"applications":{"$string":["0"]}}' },
    ],
    ["a NUL in a selector", { relayPiiConfig: '{"applications":{"$str\\u0000ing":["@ip"]}}' }],
  ];
  for (const [name, input] of HOSTILE) {
    test(`hostile input is a 400 and changes nothing: ${name}`, async () => {
      const { c, org, project } = await world();
      assert.equal(await status(() => updateProject(c, org.slug, project.slug, input)), 400);
      assert.equal(await status(() => updateOrganizationScrubbing(c, org.slug, input)), 400);
      assert.deepEqual(await scrubbingOptionsOf(c, { projectId: project.id }), {
        dataScrubber: true,
        dataScrubberDefaults: true,
        sensitiveFields: [],
        safeFields: [],
        scrubIPAddresses: false,
        relayPiiConfig: null,
      });
    });
  }

  test("the preview applies the rules to a copy of the project's newest event and says there is none yet", async () => {
    const { c, org, project } = await world();
    const { project: p } = await getProject(c, org.slug, project.slug);
    assert.equal(await previewScrubbing(c, org.slug, p, '{"applications":{"$string":["@email:replace"]}}'), null);
    assert.equal(await status(() => previewScrubbing(c, org.slug, p, '{"applications":{"$nope(":["@email"]}}')), 400);
  });
});

describe("issue 18 advanced rules on the settings screen", () => {
  test("rules added as [Method] [Type] from [Source] are Relay's JSON, listed back and removed", () => {
    let config = withRule(null, { method: "replace", type: "password", source: "$string", placeholder: "" });
    config = withRule(config, { method: "hash", type: "pattern", source: "$http.headers.x-custom", pattern: "d/[a-f0-9]{12}" });
    config = withRule(config, { method: "mask", type: "creditcard", source: "$string" });
    assert.deepEqual(JSON.parse(config), {
      rules: {
        "0": { type: "password", redaction: { method: "replace", text: "[Filtered]" } },
        "1": { type: "pattern", pattern: "d/[a-f0-9]{12}", redaction: { method: "hash" } },
        "2": { type: "creditcard", redaction: { method: "mask" } },
      },
      applications: { $string: ["0", "2"], "$http.headers.x-custom": ["1"] },
    });
    assert.deepEqual(
      screenRules(config).map((r) => `${r.method} ${r.type} ${r.source}`),
      ["replace password $string", "mask creditcard $string", "hash pattern $http.headers.x-custom"],
    );
    const less = withoutRule(config, "0", "$string");
    assert.deepEqual(Object.keys(JSON.parse(less!).rules), ["1", "2"], "a rule applied nowhere any more goes too");
    assert.equal(withoutRule(withoutRule(less, "1", "$http.headers.x-custom"), "2", "$string"), null);
  });

  test("built-in rules applied by name and rules only JSON can say are listed as such", () => {
    const rules = screenRules(
      '{"rules":{"k":{"type":"redact_pair","keyPattern":"pw","redaction":{"method":"remove"}}},"applications":{"$string":["@ip:hash"],"**":["k"]}}',
    );
    assert.deepEqual(
      rules.map((r) => [r.type, r.method, r.source, r.custom]),
      [
        ["ip", "hash", "$string", false],
        ["redact_pair", "remove", "**", true],
      ],
    );
    assert.deepEqual(screenRules("{broken"), [], "stored text that is not JSON lists nothing and throws nothing");
  });

  test("a preview lists each changed or removed value by its path", () => {
    const before = { user: { email: "ann@example.com", id: "1" }, request: { headers: [["X-Token", "abc"]] }, _meta: {} };
    const after = { user: { email: "[email]", id: "1" }, request: { headers: [["X-Token", null]] }, _meta: { user: {} } };
    assert.deepEqual(scrubbedChanges(before, after, 10), [
      { path: "user.email", before: "ann@example.com", after: "[email]" },
      { path: "request.headers.0.1", before: "abc", after: "null" },
    ]);
  });
});

describe("issue 18 the issue page marks scrubbed fields", () => {
  test("remarks in _meta are listed by path, pairs named by their key", () => {
    const event = {
      request: {
        headers: [
          ["Authorization", "[Filtered]"],
          ["Accept", "*/*"],
        ],
        cookies: [["sessionid", null]],
      },
      extra: { api_key: "[Filtered]" },
      _meta: {
        request: {
          headers: { "0": { "1": { "": { rem: [["@password:filter", "s", 0, 10]], len: 32 } } } },
          cookies: { "0": { "1": { "": { rem: [["@password:remove", "x"]] } } } },
        },
        extra: { api_key: { "": { rem: [["strip-fields", "s", 0, 10]], len: 12 } } },
      },
    };
    assert.deepEqual(scrubbedFields(event), [
      { path: "request.headers.Authorization", rules: [{ rule: "@password:filter", remark: "s" }] },
      { path: "request.cookies.sessionid", rules: [{ rule: "@password:remove", remark: "x" }] },
      { path: "extra.api_key", rules: [{ rule: "strip-fields", remark: "s" }] },
    ]);
    // A value cut to its databag's size (normalize/databags.ts) was not scrubbed: its "!limit" note is not listed.
    assert.deepEqual(scrubbedFields({ extra: { a: "xx..." }, _meta: { extra: { a: { "": { rem: [["!limit", "s", 2, 5]], len: 9000 } } } } }), []);
    assert.deepEqual(scrubbedFields({ _meta: "nonsense" }), []);
    assert.deepEqual(scrubbedFields({}), []);
  });
});
