// Single sign-on (issue 20) below the browser: the environment's FAULTLINE_OIDC_* read and checked (the secret never in
// a message), the instance settings' provider (superusers only, the secret stored encrypted, shown only as its last
// four characters, recorded without it), and the callback's query checks (auth/sso.ts) that answer 400.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkCallbackInput } from "../../src/auth/sso";
import { encryptClientSecret, ssoFromStored } from "../../src/auth/sso-settings";
import { ConfigError, loadConfig } from "../../src/config/env";
import { instanceSsoSettings, saveInstanceSso } from "../../src/core/instance-sso";
import type { User } from "../../src/storage/ports";
import { type TestCore, testCore, uniq } from "../helpers/core";

const INSTANCE_SECRET = "x".repeat(40);
const encrypt = (s: string) => encryptClientSecret(INSTANCE_SECRET, s);
const hint = async () => null;

let t: TestCore;
let root: User;
let plain: User;
before(async () => {
  t = await testCore();
  root = await t.accounts.createUser({ email: `${uniq("root")}@example.com`, password: "password123", name: "Root", isSuperuser: true });
  plain = await t.accounts.createUser({ email: `${uniq("plain")}@example.com`, password: "password123", name: "Plain" });
});
after(() => t.close());

const base = { FAULTLINE_DATA_DIR: "/tmp/faultline-sso-test", FAULTLINE_SECRET_KEY: INSTANCE_SECRET };

test("FAULTLINE_OIDC_*: all three or none, URLs and lengths checked, the secret behind a function and never in a message", () => {
  assert.equal(loadConfig(base).oidc, null);
  const c = loadConfig({
    ...base,
    FAULTLINE_OIDC_ISSUER: "http://127.0.0.1:8080/realms/acme/",
    FAULTLINE_OIDC_CLIENT_ID: "faultline",
    FAULTLINE_OIDC_CLIENT_SECRET: "s3cret-value-123",
    FAULTLINE_OIDC_NAME: "Acme ID",
  });
  assert.equal(c.oidc?.issuer, "http://127.0.0.1:8080/realms/acme", "a loopback issuer is the operator's choice, allowed");
  assert.equal(c.oidc?.clientSecret(), "s3cret-value-123");
  assert.ok(!JSON.stringify(c).includes("s3cret-value-123"));
  assert.equal(
    loadConfig({ ...base, FAULTLINE_OIDC_ISSUER: "https://id.example.com", FAULTLINE_OIDC_CLIENT_ID: "f", FAULTLINE_OIDC_CLIENT_SECRET: "s" }).oidc?.name,
    "single sign-on",
  );
  for (const bad of [
    { FAULTLINE_OIDC_ISSUER: "https://id.example.com" },
    { FAULTLINE_OIDC_CLIENT_ID: "f", FAULTLINE_OIDC_CLIENT_SECRET: "s3cret-value-123" },
    { FAULTLINE_OIDC_ISSUER: "ftp://id.example.com", FAULTLINE_OIDC_CLIENT_ID: "f", FAULTLINE_OIDC_CLIENT_SECRET: "s3cret-value-123" },
    { FAULTLINE_OIDC_ISSUER: "https://id.example.com", FAULTLINE_OIDC_CLIENT_ID: "f", FAULTLINE_OIDC_CLIENT_SECRET: "s3cret-value-123\u0000" },
    {
      FAULTLINE_OIDC_ISSUER: "https://id.example.com",
      FAULTLINE_OIDC_CLIENT_ID: "f",
      FAULTLINE_OIDC_CLIENT_SECRET: "s3cret-value-123",
      FAULTLINE_OIDC_NAME: "x".repeat(61),
    },
  ]) {
    assert.throws(
      () => loadConfig({ ...base, ...bad }),
      (e: unknown) => e instanceof ConfigError && !e.message.includes("s3cret-value-123"),
      JSON.stringify(bad).slice(0, 80),
    );
  }
});

test("instance settings' provider: superusers only, secret encrypted and shown as its last four characters, recorded without it", async () => {
  await assert.rejects(instanceSsoSettings(t.as(plain), null, hint), /superusers/);
  await assert.rejects(
    saveInstanceSso(t.as(plain), { issuer: "https://id.example.com", clientId: "f", clientSecret: "secret-0123456789", name: "X" }, false, encrypt),
    /superusers/,
  );
  assert.equal((await instanceSsoSettings(t.as(root), null, hint)).source, "none");
  // A secret is needed the first time.
  await assert.rejects(saveInstanceSso(t.as(root), { issuer: "https://id.example.com", clientId: "f", name: "X" }, false, encrypt), /client secret/);
  for (const bad of [
    { issuer: "javascript:alert(1)", clientId: "f", clientSecret: "s", name: "X" },
    { issuer: "https://id.example.com/?x=1", clientId: "f", clientSecret: "s", name: "X" },
    { issuer: "https://id.example.com", clientId: "f\u0000", clientSecret: "s", name: "X" },
    { issuer: "https://id.example.com", clientId: "f", clientSecret: "s".repeat(1_000_000), name: "X" },
    { issuer: "https://id.example.com", clientId: "f", clientSecret: "s", name: "x".repeat(61) },
  ]) {
    await assert.rejects(saveInstanceSso(t.as(root), bad, false, encrypt), (e: unknown) => e instanceof Error, JSON.stringify(bad).slice(0, 60));
  }
  await saveInstanceSso(
    t.as(root),
    { issuer: "http://10.0.0.5:8080/realms/acme/", clientId: "faultline", clientSecret: "the-client-secret-9876", name: "Acme ID" },
    false,
    encrypt,
  );
  const stored = (await t.store.getSsoSettings())!;
  assert.equal(stored.issuer, "http://10.0.0.5:8080/realms/acme");
  assert.ok(!stored.clientSecret.includes("the-client-secret"), "stored encrypted");
  const provider = (await ssoFromStored(stored, INSTANCE_SECRET))!;
  assert.equal(provider.clientSecret(), "the-client-secret-9876");
  assert.equal(await ssoFromStored(stored, "y".repeat(40)), null, "another instance secret cannot read it");
  const view = await instanceSsoSettings(t.as(root), null, async (s) => (await ssoFromStored(s, INSTANCE_SECRET))?.clientSecret().slice(-4) ?? null);
  assert.deepEqual(view, { source: "settings", issuer: "http://10.0.0.5:8080/realms/acme", clientId: "faultline", name: "Acme ID", secretHint: "9876" });

  // An empty secret keeps the stored one.
  await saveInstanceSso(
    t.as(root),
    { issuer: "http://10.0.0.5:8080/realms/acme", clientId: "faultline", clientSecret: "", name: "Acme Login" },
    false,
    encrypt,
  );
  assert.equal((await ssoFromStored((await t.store.getSsoSettings())!, INSTANCE_SECRET))!.clientSecret(), "the-client-secret-9876");

  // The environment wins: shown, not changed here.
  await assert.rejects(
    saveInstanceSso(t.as(root), { issuer: "https://id.example.com", clientId: "f", clientSecret: "s", name: "X" }, true, encrypt),
    /environment/,
  );
  assert.equal(
    (await instanceSsoSettings(t.as(root), { issuer: "https://env.example.com", clientId: "e", name: "Env", secretHint: "…abcd" }, hint)).source,
    "environment",
  );

  await saveInstanceSso(t.as(root), { remove: true }, false, encrypt);
  assert.equal(await t.store.getSsoSettings(), null);
  const entries = await t.store.listAudit({ organizationId: null, events: ["sso.settings-edit"], limit: 10 });
  assert.equal(entries.length, 3);
  assert.ok(
    entries.every((e) => !JSON.stringify(e).includes("the-client-secret")),
    "the secret is never recorded",
  );
});

test("the callback's query: one printable value per field within its length, else 400", () => {
  checkCallbackInput({ state: "abcDEF123_-", code: "x".repeat(2048), iss: "http://127.0.0.1:9/", other: ["a", "b"] }, undefined);
  checkCallbackInput({ error: "access_denied", error_description: "The user said no" }, undefined);
  const bad = [
    { state: "a\u0000b" },
    { state: "s".repeat(257) },
    { code: "c".repeat(2049) },
    { state: ["a", "b"] },
    { state: "\ufffd" },
    { error_description: "é" },
    Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"])),
  ];
  for (const query of bad) {
    assert.throws(
      () => checkCallbackInput(query, undefined),
      (e: unknown) => (e as { statusCode?: number }).statusCode === 400,
      JSON.stringify(query).slice(0, 40),
    );
  }
  assert.throws(
    () => checkCallbackInput(undefined, { state: "a\u0001" }),
    (e: unknown) => (e as { statusCode?: number }).statusCode === 400,
  );
});
