// sentry-cli uploads against a production build (sentry-protocol.md §6), with the real, unmodified sentry-cli 2.58.6
// and 3.x: `info` and the releases commands on 3.x; `sourcemaps inject` then `sourcemaps upload` of an esbuild bundle
// through chunk upload and artifact bundles with both, checked in what the server stored (release files API, the
// database, the release page), and a second upload that sends no chunk and stores nothing twice; an org:ci token
// uploading; `send-event` on 3.x; the legacy 2.x paths on a server without artifact bundles
// (FAULTLINE_CHUNK_UPLOAD_ACCEPT=release_files: release-bound assembly, and `releases files upload` one file at a
// time, 409 for a name it has). Malformed uploads over HTTP: uploads-malformed.spec.ts.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { OWNER_STATE, ownerApiToken, screenshot } from "./helpers";
import { apiAt, createProject, expectJson, listAllEvents, mainApi, run, sleep, type TestProject, unique } from "./ingest-helpers";
import { type CliTarget, injectedDebugId, runSentryCli, SENTRY_CLI_2, SENTRY_CLI_3, SENTRY_CLIS, sentryCliEnv } from "./sentry-cli";
import { LEGACY_UPLOADS_PORT, SERVERS } from "./servers";
import { storedFor } from "./upload-store";

let project: TestProject;
let home: string;

test.beforeAll(async ({ request }) => {
  project = await createProject(mainApi(request), { platform: "javascript" });
  // An empty HOME: no .sentryclirc; only the environment says where to go.
  home = mkdtempSync(path.join(os.tmpdir(), "faultline-uploads-"));
});
test.afterAll(() => rmSync(home, { recursive: true, force: true }));

const main = (): CliTarget => ({ url: SERVERS.main.url, token: ownerApiToken(), org: project.org, project: project.slug });

/** Runs sentry-cli as CI would, with the server, token, organization and project in the environment; must succeed. */
const cliEnv = (target: CliTarget) => sentryCliEnv(target, home);
const sentryCli = (bin: string, args: string[], target: CliTarget = main(), cwd = home) => runSentryCli(bin, args, target, home, cwd);

/** A minified bundle and its source map, built by esbuild from a source naming `marker` (so each build differs). */
async function buildApp(marker: string): Promise<string> {
  const dir = mkdtempSync(path.join(home, "app-"));
  writeFileSync(
    path.join(dir, "app.js"),
    `export function checkout(cart) {\n  if (!cart.items.length) throw new Error(${JSON.stringify(marker)});\n  return cart.items.length;\n}\ncheckout({ items: [] });\n`,
  );
  await build({
    entryPoints: [path.join(dir, "app.js")],
    bundle: true,
    minify: true,
    sourcemap: true,
    format: "iife",
    outfile: path.join(dir, "dist", "app.min.js"),
    logLevel: "silent",
  });
  return path.join(dir, "dist");
}

type Artifact = { id: string; name: string; dist: string | null; headers: Record<string, string>; size: number; sha1: string };
const filesPath = (t: CliTarget, version: string) => `/projects/${t.org}/${t.project}/releases/${encodeURIComponent(version)}/files/`;

const stored = (version: string) => storedFor(project.slug, version);

test.describe("sentry-cli uploads", () => {
  test.use({ storageState: OWNER_STATE });

  test("sentry-cli 3.x: info, releases new, finalize, list, info and set-commits --local", async ({ request }) => {
    const info = await sentryCli(SENTRY_CLI_3, ["info"]);
    expect(info).toContain(`Sentry Server: ${SERVERS.main.url}`);
    expect(info).toContain("project:releases");
    const version = unique("shop@3.0.0+build");
    expect(await sentryCli(SENTRY_CLI_3, ["releases", "new", version])).toContain(version);
    await sentryCli(SENTRY_CLI_3, ["releases", "finalize", version]);
    expect(await sentryCli(SENTRY_CLI_3, ["releases", "list"])).toContain(version);
    expect(await sentryCli(SENTRY_CLI_3, ["releases", "info", version])).toContain(version);
    const repo = mkdtempSync(path.join(home, "git-"));
    const git = (...args: string[]) =>
      execFileSync("git", args, {
        cwd: repo,
        env: { ...process.env, GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada", GIT_COMMITTER_EMAIL: "ada@example.com" },
      });
    git("init", "-q");
    writeFileSync(path.join(repo, "app.js"), "console.log(3)\n");
    git("add", ".");
    git("commit", "-q", "-m", "Checkout for 3.x");
    await sentryCli(SENTRY_CLI_3, ["releases", "set-commits", version, "--local"], main(), repo);
    const release = await expectJson(await mainApi(request).get(`/organizations/${project.org}/releases/${encodeURIComponent(version)}/`), 200, "GET release");
    expect(Date.parse(release.dateReleased)).toBeGreaterThan(Date.now() - 120_000);
    expect(release.commitCount).toBe(1);
    expect(release.lastCommit.message.trim()).toBe("Checkout for 3.x");
  });

  for (const cli of SENTRY_CLIS) {
    test(`sentry-cli ${cli.name}: sourcemaps inject, then upload through chunk upload as an artifact bundle; again, nothing is sent or stored twice`, async ({
      request,
      page,
    }) => {
      const dist = await buildApp(unique(`upload with ${cli.name}`));
      await sentryCli(cli.bin, ["sourcemaps", "inject", dist]);
      const debugId = injectedDebugId(dist, "app.min.js");
      const version = unique(`web@${cli.name}`);
      await sentryCli(cli.bin, ["releases", "new", version]);
      const first = await sentryCli(cli.bin, ["sourcemaps", "upload", "--release", version, "--wait", dist]);
      expect(first).not.toContain("Nothing to upload");

      const files = await expectJson<Artifact[]>(await mainApi(request).get(filesPath(main(), version)), 200, "release files");
      expect(files.map((f) => f.name)).toEqual(["~/app.min.js", "~/app.min.js.map"]);
      expect(files[0]!.headers["debug-id"]).toBe(debugId);
      expect(files[0]!.size).toBe(readFileSync(path.join(dist, "app.min.js")).byteLength);
      expect(files[0]!.sha1).toBe(
        createHash("sha1")
          .update(readFileSync(path.join(dist, "app.min.js")))
          .digest("hex"),
      );
      expect(stored(version)).toEqual({
        bundles: 1,
        files: [
          { url: "~/app.min.js", type: "minified_source", debug_id: debugId },
          { url: "~/app.min.js.map", type: "source_map", debug_id: debugId },
        ],
      });

      // The same bundle again: the assemble call names no missing chunk, so none is sent, and it is stored once.
      const second = await sentryCli(cli.bin, ["sourcemaps", "upload", "--release", version, "--wait", dist]);
      expect(second).toContain("Nothing to upload, all files are on the server");
      expect(stored(version).bundles).toBe(1);

      await page.goto(`/en/orgs/${project.org}/releases/${encodeURIComponent(version)}`);
      const table = page.getByTestId("release-artifacts");
      await expect(table.getByRole("row").filter({ hasText: "~/app.min.js.map" })).toContainText("Source map");
      await expect(table.getByRole("row").filter({ hasText: debugId }).first()).toContainText("Minified source");
      await screenshot(page, `uploads-release-artifacts-${cli.name}`);
    });
  }

  test("an organization auth token (org:ci) uploads source maps with sentry-cli 3.x", async ({ page, request }) => {
    await page.goto(`/en/orgs/${project.org}/settings/tokens`);
    const form = page.getByTestId("create-org-token-form");
    await form.getByLabel("Name").fill(unique("Uploads"));
    await form.getByRole("button", { name: "Create token" }).click();
    const token = (await form.getByTestId("result-token").textContent())!.trim();
    expect(token).toMatch(/^sntrys_/);
    const dist = await buildApp(unique("upload with an org token"));
    const target = { ...main(), token };
    await sentryCli(SENTRY_CLI_3, ["sourcemaps", "inject", dist], target);
    const version = unique("ci@1.0.0");
    await sentryCli(SENTRY_CLI_3, ["releases", "new", version, "--project", project.slug], target);
    await sentryCli(SENTRY_CLI_3, ["sourcemaps", "upload", "--release", version, "--project", project.slug, "--wait", dist], target);
    const files = await expectJson<Artifact[]>(await mainApi(request).get(filesPath(main(), version)), 200, "release files");
    expect(files.map((f) => [f.name, f.headers["debug-id"]])).toEqual([
      ["~/app.min.js", injectedDebugId(dist, "app.min.js")],
      ["~/app.min.js.map", injectedDebugId(dist, "app.min.js")],
    ]);
  });

  test("sentry-cli 3.x send-event -m: the event is stored", async ({ request }) => {
    const message = unique("sentry-cli 3 message");
    const env = { PATH: process.env.PATH, HOME: home, SENTRY_DSN: project.dsn, SENTRY_LOAD_DOTENV: "0", SENTRY_DISABLE_UPDATE_CHECK: "true" };
    const r = await run(SENTRY_CLI_3, ["send-event", "-m", message], { env, cwd: home });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    for (const deadline = Date.now() + 15_000; ; await sleep(250)) {
      const events = await listAllEvents(mainApi(request), project);
      if (events.some((e) => e.title === message)) break;
      expect(Date.now(), "the event arrives").toBeLessThan(deadline);
    }
  });
});

test.describe("sentry-cli 2.58.6 on a server without artifact bundles", () => {
  // A Faultline of its own whose chunk-upload options accept release files only, as servers before artifact bundles.
  const PORT = LEGACY_UPLOADS_PORT;
  const origin = `http://localhost:${PORT}`;
  const dataDir = path.join(process.cwd(), "test-results", "data-legacy-uploads");
  const env = {
    ...process.env,
    PORT: String(PORT),
    HOST: "127.0.0.1",
    FAULTLINE_URL: origin,
    FAULTLINE_DATA_DIR: dataDir,
    FAULTLINE_DIST_DIR: ".next",
    DATABASE_URL: "",
    FAULTLINE_CHUNK_UPLOAD_ACCEPT: "release_files",
  };
  let server: ChildProcess | null = null;
  let target: CliTarget;

  test.beforeAll(async ({ request }) => {
    rmSync(dataDir, { recursive: true, force: true });
    const faultline = (...args: string[]) => execFileSync(process.execPath, ["bin/faultline.mjs", ...args], { env, encoding: "utf8" }).trim();
    faultline("createuser", "--email", "legacy@example.com", "--password", "password123", "--superuser", "--no-input");
    const token = faultline("createtoken", "--email", "legacy@example.com");
    server = spawn(process.execPath, ["bin/faultline.mjs", "start"], { env, stdio: "ignore" });
    for (
      const deadline = Date.now() + 90_000;
      !(await fetch(`${origin}/api/health`).then(
        (r) => r.ok,
        () => false,
      ));
      await sleep(250)
    ) {
      expect(Date.now(), "the server comes up").toBeLessThan(deadline);
    }
    const p = await createProject(apiAt(request, origin, token), { platform: "javascript" });
    target = { url: origin, token, org: p.org, project: p.slug };
  });
  test.afterAll(() => {
    server?.kill("SIGTERM");
  });

  test("sourcemaps upload assembles per release (releases/{version}/assemble/); releases files upload sends one file, again 409", async ({ request }) => {
    const client = (r: APIRequestContext) => apiAt(r, origin, target.token);
    const options = await expectJson(await client(request).get(`/organizations/${target.org}/chunk-upload/`), 200, "chunk-upload options");
    expect(options.accept).toEqual(["release_files"]);

    const dist = await buildApp(unique("legacy upload"));
    const version = unique("legacy@1.0.0");
    await sentryCli(SENTRY_CLI_2, ["releases", "new", version], target);
    await sentryCli(SENTRY_CLI_2, ["sourcemaps", "upload", "--release", version, "--dist", "42", dist], target);
    // This server has no artifactbundle/assemble/: the upload went through releases/{version}/assemble/.
    await expectJson(
      await client(request).post(`/organizations/${target.org}/artifactbundle/assemble/`, { checksum: "0".repeat(40), chunks: [], projects: [target.project] }),
      404,
      "no artifact bundles",
    );
    const files = await expectJson<Artifact[]>(await client(request).get(filesPath(target, version)), 200, "release files");
    expect(files.map((f) => [f.name, f.dist])).toEqual([
      ["~/app.min.js", "42"],
      ["~/app.min.js.map", "42"],
    ]);

    const extra = path.join(home, "extra.js");
    writeFileSync(extra, "console.log('extra')\n");
    await sentryCli(SENTRY_CLI_2, ["releases", "files", version, "upload", extra, "~/static/extra.js"], target);
    // The same name again: 409, which this command reports as its error.
    const again = await run(SENTRY_CLI_2, ["releases", "files", version, "upload", extra, "~/static/extra.js"], { env: cliEnv(target), cwd: home });
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining("File already present!")]);
    const listed = await expectJson<Artifact[]>(await client(request).get(filesPath(target, version)), 200, "release files");
    expect(listed.filter((f) => f.name === "~/static/extra.js").map((f) => [f.size, f.dist])).toEqual([[21, null]]);
  });
});
