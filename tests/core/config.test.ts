// Configuration is read from the environment and validated at start, with every problem named at once.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ConfigError, loadConfig as load } from "../../src/config/env";

const loadConfig = (env: Record<string, string>) => load(env as NodeJS.ProcessEnv);

const dataDir = () => mkdtempSync(path.join(tmpdir(), "faultline-config-"));

test("defaults: port 9000, SQLite in the data dir, public URL from the port", () => {
  const dir = dataDir();
  const c = loadConfig({ FAULTLINE_DATA_DIR: dir });
  assert.equal(c.port, 9000);
  assert.equal(c.publicUrl, "http://localhost:9000");
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.dataDir, dir);
  assert.equal(c.trustProxy, false);
  assert.equal(c.digest, "inline", "the digest runs in a worker thread of the server unless told otherwise");
});

test("FAULTLINE_DIGEST is inline or external, nothing else", () => {
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_DIGEST: "external" }).digest, "external");
  assert.throws(
    () => loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_DIGEST: "separate" }),
    (e: unknown) => e instanceof ConfigError && /FAULTLINE_DIGEST must be inline or external/.test(e.message),
  );
});

test("FAULTLINE_DIGEST_THREADS is 1 (the default) or 2, nothing else", () => {
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: dataDir() }).digestThreads, 1);
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_DIGEST_THREADS: "2" }).digestThreads, 2);
  for (const bad of ["0", "3", "two", "1e0"])
    assert.throws(
      () => loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_DIGEST_THREADS: bad }),
      (e: unknown) => e instanceof ConfigError && /FAULTLINE_DIGEST_THREADS must be 1 or 2/.test(e.message),
    );
});

test("FAULTLINE_CHUNK_UPLOAD_ACCEPT: every kind by default, a narrower list, none, or an error naming the kinds", () => {
  assert.deepEqual(loadConfig({ FAULTLINE_DATA_DIR: dataDir() }).chunkUploadAccept, ["release_files", "artifact_bundles", "artifact_bundles_v2"]);
  assert.deepEqual(loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_CHUNK_UPLOAD_ACCEPT: " release_files " }).chunkUploadAccept, ["release_files"]);
  assert.deepEqual(loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_CHUNK_UPLOAD_ACCEPT: "none" }).chunkUploadAccept, []);
  assert.throws(
    () => loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_CHUNK_UPLOAD_ACCEPT: "release_files,debug_files" }),
    (e: unknown) =>
      e instanceof ConfigError &&
      /FAULTLINE_CHUNK_UPLOAD_ACCEPT must be "none" or a comma-separated list of release_files, artifact_bundles, artifact_bundles_v2/.test(e.message),
  );
});

test("the secret key is generated once, stored privately in the data dir, and reused", () => {
  const dir = dataDir();
  const first = loadConfig({ FAULTLINE_DATA_DIR: dir }).secretKey;
  assert.match(first, /^[0-9a-f]{64}$/);
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: dir }).secretKey, first);
  assert.equal(readFileSync(path.join(dir, "secret.key"), "utf8").trim(), first);
  assert.equal(statSync(path.join(dir, "secret.key")).mode & 0o777, 0o600);
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: dir, FAULTLINE_SECRET_KEY: "k".repeat(40) }).secretKey, "k".repeat(40));
});

test("every invalid value is reported at once, by name", () => {
  try {
    loadConfig({ PORT: "ninety", FAULTLINE_URL: "ftp://x", DATABASE_URL: "mysql://db", FAULTLINE_SECRET_KEY: "short", FAULTLINE_DATA_DIR: dataDir() });
    assert.fail("expected a ConfigError");
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    const text = err.message;
    for (const name of ["PORT", "FAULTLINE_URL", "DATABASE_URL", "FAULTLINE_SECRET_KEY"]) assert.match(text, new RegExp(`${name} `));
    assert.match(text, /must be a postgres:\/\/ URL/);
  }
});

test("empty variables count as unset, and a trailing slash on the public URL is dropped", () => {
  const c = loadConfig({ PORT: "", DATABASE_URL: "", FAULTLINE_URL: "https://errors.example.com/", FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_TRUST_PROXY: "1" });
  assert.equal(c.port, 9000);
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.publicUrl, "https://errors.example.com");
  assert.equal(c.trustProxy, true);
});

test("FAULTLINE_RETENTION_DAYS: 90 by default, a whole number of days from 1 to 3650, anything else named", () => {
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: dataDir() }).retentionDays, 90);
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_RETENTION_DAYS: "30" }).retentionDays, 30);
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_RETENTION_DAYS: "3650" }).retentionDays, 3650);
  for (const [value, message] of [
    ["0", /between 1 and 3650/],
    ["3651", /between 1 and 3650/],
    ["-5", /between 1 and 3650/],
    ["7.5", /whole number of days/],
    ["ninety", /must be a number of days/],
  ] as const) {
    assert.throws(
      () => loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_RETENTION_DAYS: value }),
      (e) => e instanceof ConfigError && /FAULTLINE_RETENTION_DAYS /.test(e.message) && message.test(e.message),
      value,
    );
  }
});

test("self-monitoring: on by default with errors at 1 and page loads at 0.1, FAULTLINE_SELF_MONITORING=0 turns it off, rates from 0 to 1", () => {
  assert.deepEqual(loadConfig({ FAULTLINE_DATA_DIR: dataDir() }).selfMonitoring, { enabled: true, errorSampleRate: 1, tracesSampleRate: 0.1 });
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_SELF_MONITORING: "0" }).selfMonitoring.enabled, false);
  assert.equal(loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_SELF_MONITORING: "false" }).selfMonitoring.enabled, false);
  assert.deepEqual(
    loadConfig({ FAULTLINE_DATA_DIR: dataDir(), FAULTLINE_SELF_MONITORING_SAMPLE_RATE: "0.5", FAULTLINE_SELF_MONITORING_TRACES_SAMPLE_RATE: "1" })
      .selfMonitoring,
    { enabled: true, errorSampleRate: 0.5, tracesSampleRate: 1 },
  );
  for (const [name, value] of [
    ["FAULTLINE_SELF_MONITORING", "maybe"],
    ["FAULTLINE_SELF_MONITORING_SAMPLE_RATE", "2"],
    ["FAULTLINE_SELF_MONITORING_TRACES_SAMPLE_RATE", "-0.1"],
    ["FAULTLINE_SELF_MONITORING_TRACES_SAMPLE_RATE", "half"],
  ] as const) {
    assert.throws(
      () => loadConfig({ FAULTLINE_DATA_DIR: dataDir(), [name]: value }),
      (e) => e instanceof ConfigError && e.message.includes(`${name} `),
      `${name}=${value}`,
    );
  }
});
