// The server's listener puts the security headers on every answer that is not a page: the intake's (accepted,
// refused, preflight), with its CORS headers kept as SDKs need them, and the listener's own refusals; with an https
// public URL, HSTS too. A Content-Security-Policy a client sends never reaches Next (where it would name the nonce of
// a page's scripts). Real HTTP, a real intake and spool over a real SQLite store; in place of Next.js, a handler that
// answers with the request headers it was given.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { openIntake } from "../../src/ingest";
import { createListener } from "../../src/server/listener";
import { testCore, type TestCore, uniq } from "../helpers/core";

const BASE = ["x-content-type-options", "x-frame-options", "referrer-policy", "content-security-policy"];

function serve(publicUrl: string, core: TestCore, dataDir: string) {
  const intake = openIntake({ dataDir, durability: "normal", lookupKey: (k) => core.store.getIntakeKey(k), log: () => undefined });
  const next = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(req.headers));
  };
  const server = http.createServer(createListener({ config: { trustProxy: false, publicUrl }, basePath: "", intake, next }));
  return { server, intake };
}

function assertBase(res: Response, what: string): void {
  assert.equal(res.headers.get("x-content-type-options"), "nosniff", what);
  assert.equal(res.headers.get("x-frame-options"), "DENY", what);
  assert.equal(res.headers.get("referrer-policy"), "same-origin", what);
  assert.equal(res.headers.get("content-security-policy"), "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'", what);
}

describe("security headers of the listener", () => {
  let core: TestCore;
  let dataDir: string;
  const servers: { server: http.Server; intake: ReturnType<typeof openIntake>; origin: string }[] = [];
  let project: { id: number; publicKey: string };

  before(async () => {
    core = await testCore();
    dataDir = mkdtempSync(path.join(tmpdir(), "faultline-headers-"));
    const owner = await core.accounts.createUser({ email: `${uniq("o")}@example.com`, password: "password123", name: "O" });
    const org = await core.store.createOrganization({ slug: uniq("org"), name: "Org", ownerUserId: owner.id });
    const p = await core.store.createProject({ organizationId: org.id, teamId: null, slug: uniq("p"), name: "P", platform: null });
    const key = await core.store.createKey({ projectId: p.id, label: "Default", publicKey: "a".repeat(32), secretKey: "s".repeat(32) });
    project = { id: p.id, publicKey: key.publicKey };
    for (const [i, url] of ["https://errors.example.com", "http://localhost:9000"].entries()) {
      const { server, intake } = serve(url, core, path.join(dataDir, String(i)));
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      servers.push({ server, intake, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    }
  });

  after(async () => {
    for (const s of servers) {
      await new Promise((r) => s.server.close(r));
      s.intake.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
    await core.close();
  });

  test("hostile input #14: an intake answer carries the security headers and keeps its CORS headers; HSTS only for an https public URL", async () => {
    const [https, http] = servers;
    const envelope = `{"event_id":"${"b".repeat(32)}"}\n{"type":"event"}\n{"message":"x"}\n`;
    for (const s of [https!, http!]) {
      const ok = await fetch(`${s.origin}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`, { method: "POST", body: envelope });
      assert.equal(ok.status, 200);
      assertBase(ok, "accepted");
      assert.equal(ok.headers.get("access-control-allow-origin"), "*");
      assert.match(ok.headers.get("access-control-expose-headers") ?? "", /x-sentry-rate-limits/);
      const refused = await fetch(`${s.origin}/api/${project.id}/envelope/?sentry_key=${"f".repeat(32)}&sentry_version=7`, { method: "POST", body: envelope });
      assert.ok(refused.status >= 400 && refused.status < 500, String(refused.status));
      assertBase(refused, "refused");
      assert.equal(refused.headers.get("access-control-allow-origin"), "*");
      const preflight = await fetch(`${s.origin}/api/${project.id}/envelope/`, {
        method: "OPTIONS",
        headers: { origin: "https://shop.example", "access-control-request-method": "POST" },
      });
      assert.equal(preflight.status, 200);
      assertBase(preflight, "preflight");
      assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /POST/);
    }
    const sts = (s: (typeof servers)[number]) =>
      fetch(`${s.origin}/api/${project.id}/envelope/`, { method: "OPTIONS" }).then((r) => r.headers.get("strict-transport-security"));
    assert.equal(await sts(https!), "max-age=31536000");
    assert.equal(await sts(http!), null);
  });

  test("hostile input #14: the listener's own refusals carry them, and a policy the client sends never reaches Next", async () => {
    const [https] = servers;
    const crossOrigin = await fetch(`${https!.origin}/en/orgs`, {
      method: "POST",
      headers: { "next-action": "abc", origin: "https://evil.example", host: "127.0.0.1" },
    });
    assert.equal(crossOrigin.status, 403);
    assertBase(crossOrigin, "cross-origin server action");
    assert.equal(crossOrigin.headers.get("strict-transport-security"), "max-age=31536000");
    const page = await fetch(`${https!.origin}/en/orgs`, {
      headers: { "content-security-policy": "script-src 'nonce-<x>'", "content-security-policy-report-only": "script-src 'nonce-y'" },
    });
    assert.equal(page.status, 200);
    const seen = (await page.json()) as Record<string, string>;
    assert.equal(seen["content-security-policy"], undefined);
    assert.equal(seen["content-security-policy-report-only"], undefined);
    for (const name of BASE) assert.ok(page.headers.has(name), name);
  });
});
