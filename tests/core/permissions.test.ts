// The permission matrix, checked as a matrix: every role against every mutation, through the core services that
// the server actions and the API routes call; and another organization's objects answer not_found whatever the role.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { getOrganization } from "../../src/core/organizations";
import { ORG_TOKEN_SCOPES, PERMISSIONS, type Permission } from "../../src/core/permissions";
import { authenticateOrgToken, createOrgToken } from "../../src/core/org-tokens";
import { getProject, updateProject } from "../../src/core/projects";
import { listKeys } from "../../src/core/keys";
import { createAlertRule, setAlertsMemberWrite } from "../../src/core/alert-rules";
import { ROLES, type Role } from "../../src/core/roles";
import { getMonitor, setMonitorMuted } from "../../src/core/monitors";
import { downloadEventAttachment, listEventAttachments } from "../../src/core/attachments";
import { downloadBytes } from "../helpers/download";
import { listProjectLogs, listTraceLogs, tailProjectLogs } from "../../src/core/logs";
import { isTwoFactorRequired, setRequireTwoFactor } from "../../src/core/two-factor";
import { joinByInvitation, outcome } from "../helpers/core";
import { MONITOR_READS, MUTATIONS, READS } from "./permission-mutations";
import { RULE, t, coreForThisFile, user, withTwoFactor, world } from "./permission-world";

coreForThisFile();

describe("permission matrix (each role × each mutation)", () => {
  for (const role of ROLES) {
    for (const [name, m] of Object.entries(MUTATIONS)) {
      const allowed = (PERMISSIONS[m.permission] as readonly Role[]).includes(role);
      test(`${role} ${allowed ? "may" : "may not"} ${name}`, async () => {
        const { w, owner } = await world();
        const actor = role === "owner" ? owner : await user();
        if (role !== "owner") await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
        assert.equal(await outcome(() => m.run(t.as(actor), w)), allowed ? "ok" : "forbidden");
      });
    }
  }
});

describe("issue 19 cron monitors: every role reads them; another organization's monitor is not found", () => {
  for (const role of ROLES) {
    test(`${role} may read cron monitors`, async () => {
      const { w, owner } = await world();
      const actor = role === "owner" ? owner : await user();
      if (role !== "owner") await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
      for (const [name, read] of Object.entries(MONITOR_READS)) assert.equal(await outcome(() => read(t.as(actor), w)), "ok", name);
    });
  }
  test("an outsider finds no monitor, and a slug of another organization names nothing", async () => {
    const { w } = await world();
    const other = await world();
    assert.equal(await outcome(() => getMonitor(t.as(other.owner), w.org, "nightly")), "not_found");
    assert.equal(await outcome(() => setMonitorMuted(t.as(other.owner), w.org, "nightly", true)), "not_found");
    assert.equal(await outcome(() => getMonitor(t.as(other.owner), other.w.org, "missing")), "not_found");
  });
});

describe("issue 19 attachments: the project's attachments role decides downloads; listing is every role's", () => {
  for (const [setting, allowedRoles] of [
    ["admin", ["owner", "admin"]],
    ["viewer", ["owner", "admin", "member", "viewer"]],
    ["owner", ["owner"]],
  ] as const) {
    for (const role of ROLES) {
      const may = (allowedRoles as readonly string[]).includes(role);
      test(`with the attachments role ${setting}, ${role} ${may ? "may" : "may not"} download`, async () => {
        const { w, owner } = await world();
        await updateProject(t.as(owner), w.org, w.project, { attachmentsRole: setting });
        const actor = role === "owner" ? owner : await user();
        if (role !== "owner") await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
        assert.equal(await outcome(() => downloadEventAttachment(t.as(actor), w.org, w.project, w.eventId, w.attachmentId)), may ? "ok" : "forbidden");
        const listed = await listEventAttachments(t.as(actor), w.org, w.project, w.eventId);
        assert.equal(listed.attachments.length, 1, "the list is shown to every role");
        assert.equal(listed.canDownload, may);
      });
    }
  }
  test("a superuser downloads, an organization token never does, another organization's attachment is not found", async () => {
    const { w, owner } = await world();
    const admin = await user(true);
    assert.equal((await downloadBytes(t.as(admin), w.org, w.project, w.eventId, w.attachmentId)).toString(), "screenshot bytes");
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const tokenActor = await authenticateOrgToken(t.store, plaintext);
    assert.ok(tokenActor);
    assert.equal(await outcome(() => downloadEventAttachment({ store: t.store, actor: tokenActor }, w.org, w.project, w.eventId, w.attachmentId)), "forbidden");
    const other = await world();
    assert.equal(await outcome(() => downloadEventAttachment(t.as(other.owner), w.org, w.project, w.eventId, w.attachmentId)), "not_found");
    assert.equal(await outcome(() => downloadEventAttachment(t.as(owner), w.org, w.project, w.eventId, "999999999")), "not_found");
    assert.equal(await outcome(() => downloadEventAttachment(t.as(owner), w.org, w.project, "../../etc", w.attachmentId)), "not_found");
  });
});

describe("issue 17 rules: alert rules in the matrix", () => {
  for (const role of ROLES) {
    test(`${role} may read alert rules`, async () => {
      const { w, owner } = await world();
      const actor = role === "owner" ? owner : await user();
      if (role !== "owner") await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
      for (const [name, read] of Object.entries(READS)) assert.equal(await outcome(() => read(t.as(actor), w)), "ok", name);
    });
  }

  test("with 'Let members create alerts' on, members may write alert rules too; viewers still may not", async () => {
    const { w, owner } = await world();
    await setAlertsMemberWrite(t.as(owner), w.org, { alertsMemberWrite: true });
    for (const [role, expected] of [
      ["member", "ok"],
      ["viewer", "forbidden"],
    ] as const) {
      const actor = await user();
      await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
      for (const name of ["create alert rule", "change alert rule", "send a test notification"])
        assert.equal(await outcome(() => MUTATIONS[name]!.run(t.as(actor), w)), expected, `${role} ${name}`);
    }
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const token = (await authenticateOrgToken(t.store, plaintext))!;
    assert.equal(await outcome(() => createAlertRule({ store: t.store, actor: token }, w.org, w.project, RULE)), "forbidden", "an organization token never");
  });
});

describe("issue 20: an organization requiring two-factor refuses every role without it, for every read and mutation", () => {
  for (const role of ROLES) {
    test(`a ${role} without two-factor is refused with the reason; with it, the matrix applies again`, async () => {
      const { w, owner } = await world();
      const actor = await user();
      await joinByInvitation(t, t.as(owner), w.org, { email: actor.email, role });
      await withTwoFactor(t.as(owner));
      await setRequireTwoFactor(t.as(owner), w.org, { requireTwoFactor: true });
      const reads = [
        () => getOrganization(t.as(actor), w.org),
        () => getProject(t.as(actor), w.org, w.project),
        () => listKeys(t.as(actor), w.org, w.project),
        ...Object.values(READS).map((r) => () => r(t.as(actor), w)),
      ];
      for (const attempt of [
        ...reads,
        ...Object.values(MUTATIONS)
          .filter((m) => m.permission !== "org:security")
          .map((m) => () => m.run(t.as(actor), w)),
      ]) {
        const err = await attempt().then(
          () => null,
          (x: unknown) => x,
        );
        assert.ok(isTwoFactorRequired(err), `refused for two-factor: ${String(err)}`);
      }
      await withTwoFactor(t.as(actor));
      assert.equal(await outcome(() => getOrganization(t.as(actor), w.org)), "ok");
    });
  }
  test("an organization token is no person: two-factor does not apply to it", async () => {
    const { w, owner } = await world();
    await withTwoFactor(t.as(owner));
    await setRequireTwoFactor(t.as(owner), w.org, { requireTwoFactor: true });
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const token = (await authenticateOrgToken(t.store, plaintext))!;
    assert.equal(await outcome(() => getProject({ store: t.store, actor: token }, w.org, w.project)), "ok");
  });
  test("a superuser who is not a member is held to the organization's requirement too", async () => {
    const { w, owner } = await world();
    await withTwoFactor(t.as(owner));
    await setRequireTwoFactor(t.as(owner), w.org, { requireTwoFactor: true });
    const su = await user(true);
    assert.ok(
      isTwoFactorRequired(
        await getOrganization(t.as(su), w.org).then(
          () => null,
          (x: unknown) => x,
        ),
      ),
    );
  });
});

describe("another organization's objects are not found, whatever the role", () => {
  for (const role of ROLES) {
    test(`${role} of another organization gets not_found for every read and mutation`, async () => {
      const { w } = await world();
      const { w: mine, owner: myOwner } = await world();
      const actor = role === "owner" ? myOwner : await user();
      if (role !== "owner") await joinByInvitation(t, t.as(myOwner), mine.org, { email: actor.email, role });
      assert.equal(await outcome(() => getOrganization(t.as(actor), w.org)), "not_found");
      assert.equal(await outcome(() => getProject(t.as(actor), w.org, w.project)), "not_found");
      assert.equal(await outcome(() => listKeys(t.as(actor), w.org, w.project)), "not_found");
      for (const [name, m] of Object.entries(MUTATIONS)) {
        assert.equal(await outcome(() => m.run(t.as(actor), w)), "not_found", name);
      }
    });
  }

  test("an install superuser who is not a member may act on any organization", async () => {
    const { w } = await world();
    const su = await user(true);
    assert.equal(await outcome(() => updateProject(t.as(su), w.org, w.project, { name: "By superuser" })), "ok");
  });
});

describe("issue 19 logs: event:read, checked in the core for the page, the live tail and the API", () => {
  test("another organization's member, an organization token (org:ci, no event:read) and a bad search are refused", async () => {
    const { w, owner } = await world();
    const other = await world();
    assert.equal(await outcome(() => listProjectLogs(t.as(other.owner), w.org, w.project, {})), "not_found");
    assert.equal(await outcome(() => tailProjectLogs(t.as(other.owner), w.org, w.project, {}, 0)), "not_found");
    assert.equal(await outcome(() => listTraceLogs(t.as(other.owner), w.org, "5b8efff798038103d269b633813fc60c")), "not_found");
    const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
    const token = (await authenticateOrgToken(t.store, plaintext))!;
    assert.equal(await outcome(() => listProjectLogs({ store: t.store, actor: token }, w.org, w.project, {})), "forbidden");
    assert.equal(await outcome(() => listProjectLogs(t.as(owner), w.org, w.project, { level: "loud" })), "bad_request");
  });
});

describe("an organization token (org:ci) × each mutation", () => {
  const granted = ORG_TOKEN_SCOPES["org:ci"] as readonly Permission[];
  for (const [name, m] of Object.entries(MUTATIONS)) {
    const allowed = granted.includes(m.permission);
    test(`an organization token ${allowed ? "may" : "may not"} ${name}; another organization's token finds nothing`, async () => {
      const { w, owner } = await world();
      const { plaintext } = await createOrgToken(t.as(owner), w.org, { name: "CI" }, "http://localhost:9000");
      const actor = (await authenticateOrgToken(t.store, plaintext))!;
      assert.equal(await outcome(() => m.run({ store: t.store, actor }, w)), allowed ? "ok" : "forbidden");
      const { w: other } = await world();
      assert.equal(await outcome(() => m.run({ store: t.store, actor }, other)), "not_found");
    });
  }
});
