// sentry-cli uploads against a production build (sentry-protocol.md §6), with the real, unmodified sentry-cli 2.58.6
// and 3.x: `info` and the releases commands on 3.x; `sourcemaps inject` then `sourcemaps upload` of an esbuild bundle
// through chunk upload and artifact bundles with both, checked in what the server stored (release files API, the
// database, the release page), and a second upload that sends no chunk and stores nothing twice; an org:ci token
// uploading; `send-event` on 3.x; the legacy 2.x paths on a server without artifact bundles
// (FAULTLINE_CHUNK_UPLOAD_ACCEPT=release_files: release-bound assembly, and `releases files upload` one file at a
// time, 409 for a name it has); and malformed uploads over HTTP: 4xx or an assemble state "error" with a detail,
// never a 500.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import net from "node:net";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import SQLite from "better-sqlite3";
import { build } from "esbuild";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { OWNER_STATE, ownerApiToken, screenshot } from "./helpers";
import { apiAt, createProject, expectJson, listAllEvents, mainApi, run, sleep, type TestProject, unique } from "./ingest-helpers";
import { type CliTarget, injectedDebugId, runSentryCli, SENTRY_CLI_2, SENTRY_CLI_3, SENTRY_CLIS, sentryCliEnv } from "./sentry-cli";
import { SERVERS } from "./servers";

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

/** What the main server's database holds for a release: its bundles and their files' debug ids by type. */
function stored(version: string): { bundles: number; files: { url: string; type: string | null; debug_id: string | null }[] } {
  const db = new SQLite(path.join(SERVERS.main.dataDir, "faultline.sqlite3"), { readonly: true, fileMustExist: true });
  try {
    const where = "FROM artifact_bundle_links l JOIN projects p ON p.id = l.project_id WHERE p.slug = ? AND l.release = ?";
    const bundles = (db.prepare(`SELECT count(DISTINCT l.bundle_id) AS n ${where}`).get(project.slug, version) as { n: number }).n;
    const files = db
      .prepare(`SELECT f.url, f.type, f.debug_id FROM artifact_files f WHERE f.bundle_id IN (SELECT l.bundle_id ${where}) ORDER BY f.url`)
      .all(project.slug, version) as { url: string; type: string | null; debug_id: string | null }[];
    return { bundles, files };
  } finally {
    db.close();
  }
}

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
  const PORT = Number(process.env.FAULTLINE_E2E_PORT_BASE ?? 9100) + 3;
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

test.describe("malformed uploads over HTTP", () => {
  const sha1 = (b: Uint8Array) => createHash("sha1").update(b).digest("hex");
  const headers = () => ({ authorization: `Bearer ${ownerApiToken()}` });
  const url = (p: string) => `${SERVERS.main.url}/api/0/organizations/${project.org}${p}`;
  const postChunks = (request: APIRequestContext, parts: { field: string; name: string; data: Buffer }[]) => {
    const boundary = "----faultline-test-boundary";
    const body = Buffer.concat([
      ...parts.flatMap((p) => [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.field}"; filename="${p.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        p.data,
        Buffer.from("\r\n"),
      ]),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
    return request.post(url("/chunk-upload/"), { headers: { ...headers(), "content-type": `multipart/form-data; boundary=${boundary}` }, data: body });
  };
  const assemble = (request: APIRequestContext, body: unknown) => request.post(url("/artifactbundle/assemble/"), { headers: headers(), data: body });

  test("sentry-protocol §6: the chunk-upload options, and a bundle uploaded in gzip parts by hand: not_found with its missing chunks, then ok, then ok with none missing", async ({
    request,
  }) => {
    const options = await expectJson(await request.get(url("/chunk-upload/"), { headers: headers() }), 200, "options");
    expect(options).toMatchObject({
      url: `${SERVERS.main.url}/api/0/organizations/${project.org}/chunk-upload/`,
      hashAlgorithm: "sha1",
      compression: ["gzip"],
      chunksPerRequest: 64,
    });
    expect(options.accept).toEqual(expect.arrayContaining(["artifact_bundles", "artifact_bundles_v2", "release_files"]));
    expect(Math.log2(options.chunkSize) % 1).toBe(0);

    const bundle = Buffer.from(
      zipSync({
        "manifest.json": strToU8(
          JSON.stringify({
            files: { "files/_/_/x.js": { type: "minified_source", url: "~/x.js", headers: { "debug-id": "01234567-89ab-4def-8123-456789abcdef" } } },
          }),
        ),
        "files/_/_/x.js": strToU8(unique("x")),
      }),
    );
    const halves = [bundle.subarray(0, 100), bundle.subarray(100)];
    const body = { checksum: sha1(bundle), chunks: halves.map(sha1), projects: [project.slug] };
    expect(await expectJson(await assemble(request, body), 200, "assemble")).toEqual({ state: "not_found", missingChunks: halves.map(sha1), detail: null });
    expect((await postChunks(request, [{ field: "file_gzip", name: sha1(halves[0]!), data: gzipSync(halves[0]!) }])).status()).toBe(200);
    expect(await expectJson(await assemble(request, body), 200, "assemble")).toEqual({ state: "not_found", missingChunks: [sha1(halves[1]!)], detail: null });
    expect((await postChunks(request, [{ field: "file", name: sha1(halves[1]!), data: halves[1]! }])).status()).toBe(200);
    expect(await expectJson(await assemble(request, body), 200, "assemble")).toEqual({ state: "ok", missingChunks: [], detail: null });
    expect(await expectJson(await assemble(request, body), 200, "assemble again")).toEqual({ state: "ok", missingChunks: [], detail: null });
  });

  test("hostile input #9: 64 gzip parts of 8 MiB of zeros (511 KB sent) get 413; garbage bodies get a 4xx with a detail, never a 500 or a reset", async ({
    request,
  }) => {
    const boundary = "----faultline-hostile";
    const multipart = (parts: { field?: string; name?: string; head?: string; data: Uint8Array | string }[], close = true) =>
      Buffer.concat([
        ...parts.flatMap((p) => [
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data${p.field ? `; name="${p.field}"` : ""}${p.name ? `; filename="${p.name}"` : ""}\r\n${p.head ?? ""}Content-Type: application/octet-stream\r\n\r\n`,
          ),
          Buffer.from(p.data),
          Buffer.from("\r\n"),
        ]),
        Buffer.from(close ? `--${boundary}--\r\n` : ""),
      ]);
    // Node's fetch: a connection reset would reject here instead of answering.
    const post = async (body: Uint8Array, type = `multipart/form-data; boundary=${boundary}`) => {
      const res = await fetch(url("/chunk-upload/"), { method: "POST", headers: { ...headers(), "content-type": type }, body: new Uint8Array(body) });
      return { status: res.status, detail: ((await res.json()) as { detail?: string }).detail ?? "" };
    };

    const zeros = new Uint8Array(8 * 1024 * 1024);
    const bomb = multipart(Array.from({ length: 64 }, () => ({ field: "file_gzip", name: sha1(zeros), data: gzipSync(zeros, { level: 9 }) })));
    expect(bomb.byteLength).toBeLessThan(600_000);
    expect(await post(bomb)).toEqual({ status: 413, detail: "The chunks of one request inflate to more than 67108864 bytes; send fewer per request" });

    const chunk = Buffer.from(unique("chunk"));
    const good = { field: "file", name: sha1(chunk), data: chunk };
    const cases: [string, Uint8Array, number, RegExp, string?][] = [
      ["truncated", multipart([good]).subarray(0, 150), 400, /malformed: unexpected end of (form|file)/],
      ["another boundary than declared", multipart([good]), 400, /malformed: unexpected end of form/, "multipart/form-data; boundary=not-the-one"],
      ["no boundary", multipart([good]), 400, /no boundary/, "multipart/form-data; charset=utf-8"],
      ["a part without a name", multipart([{ ...good, field: undefined }]), 400, /a part has no name/],
      ["a 20 KiB part header", multipart([{ ...good, head: `X-Padding: ${"a".repeat(20 * 1024)}\r\n` }]), 400, /malformed part header/],
      ["a gzip part that is not gzip", multipart([{ ...good, field: "file_gzip" }]), 400, /is not valid gzip/],
      [
        "a part over the chunk size",
        multipart([{ field: "file", name: sha1(zeros), data: new Uint8Array(8 * 1024 * 1024 + 65 * 1024) }]),
        400,
        /Chunk size too large/,
      ],
      ["more parts than chunksPerRequest", multipart(Array.from({ length: 65 }, () => good)), 400, /Too many chunks/],
      // Refused at its first part, then 24 MiB more: the client still gets the answer, not a reset connection.
      [
        "a bad first part before a large rest",
        multipart([{ ...good, name: "not-a-sha1" }, ...Array.from({ length: 3 }, () => ({ field: "file", name: sha1(zeros), data: zeros }))]),
        400,
        /SHA-1 in hex/,
      ],
    ];
    for (const [what, body, status, detail, type] of cases) {
      const answer = await post(body, type);
      expect(answer.status, `${what}: ${answer.detail}`).toBe(status);
      expect(answer.detail, what).toMatch(detail);
    }
    // The server is well afterwards: a good chunk is stored.
    expect((await post(multipart([good]))).status).toBe(200);
    expect(
      await expectJson(await assemble(request, { checksum: sha1(chunk), chunks: [sha1(chunk)], projects: [project.slug] }), 200, "assemble"),
    ).toMatchObject({ missingChunks: [] });
  });

  test("hostile input #9: a chunk upload whose body stops arriving is answered 408, not held", async () => {
    test.setTimeout(120_000);
    const { port, hostname } = new URL(SERVERS.main.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => {
        const path = `/api/0/organizations/${project.org}/chunk-upload/`;
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${ownerApiToken()}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nsome bytes`,
        );
      });
      let text = "";
      socket.on("data", (d) => (text += d.toString("latin1")));
      socket.on("end", () => resolve(text));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"detail":"No part of the request body arrived for 30 seconds"');
  });

  test("bad chunks and bad assemble calls: 400 with a detail, or state error with a detail; never a 500", async ({ request }) => {
    const data = Buffer.from(unique("chunk"));
    const refused = async (r: Promise<import("@playwright/test").APIResponse>, status: number, detail: RegExp) => {
      const res = await r;
      expect(res.status(), await res.text()).toBe(status);
      expect((await res.json()).detail).toMatch(detail);
    };
    await refused(request.post(url("/chunk-upload/"), { headers: headers(), data: { not: "multipart" } }), 400, /multipart/);
    await refused(postChunks(request, [{ field: "file", name: sha1(Buffer.from("other")), data }]), 400, /does not match its SHA-1/);
    await refused(postChunks(request, [{ field: "file", name: "not-a-sha1", data }]), 400, /SHA-1 in hex/);
    await refused(postChunks(request, [{ field: "file_gzip", name: sha1(data), data }]), 400, /not valid gzip/);
    await refused(postChunks(request, [{ field: "file_brotli", name: sha1(data), data }]), 400, /Unknown field/);
    await refused(
      postChunks(
        request,
        Array.from({ length: 65 }, () => ({ field: "file", name: sha1(data), data })),
      ),
      400,
      /Too many chunks/,
    );
    await refused(
      request.post(url("/chunk-upload/"), {
        headers: { ...headers(), "content-type": "multipart/form-data; boundary=x" },
        data: Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\ntruncated'),
      }),
      400,
      /malformed/,
    );

    await refused(assemble(request, { checksum: "nope", chunks: [], projects: [project.slug] }), 400, /checksum/);
    await refused(assemble(request, { checksum: sha1(data), chunks: [sha1(data)], projects: ["no-such-project"] }), 400, /Invalid project/);
    await refused(
      request.post(url("/artifactbundle/assemble/"), { headers: { ...headers(), "content-type": "application/json" }, data: Buffer.from("{not json") }),
      400,
      /not valid JSON/,
    );

    // A chunk that is no ZIP assembles into an error that says so.
    expect((await postChunks(request, [{ field: "file", name: sha1(data), data }])).status()).toBe(200);
    expect(await expectJson(await assemble(request, { checksum: sha1(data), chunks: [sha1(data)], projects: [project.slug] }), 200, "assemble")).toEqual({
      state: "error",
      missingChunks: [],
      detail: expect.stringMatching(/^Invalid artifact bundle: the bundle is not a valid ZIP archive/),
    });
    // Chunks that do not make up the checksum: an error too.
    const other = Buffer.from(unique("other chunk"));
    expect((await postChunks(request, [{ field: "file", name: sha1(other), data: other }])).status()).toBe(200);
    expect(await expectJson(await assemble(request, { checksum: sha1(data), chunks: [sha1(other)], projects: [project.slug] }), 200, "assemble")).toEqual({
      state: "error",
      missingChunks: [],
      detail: expect.stringMatching(/checksum/),
    });

    // Legacy release files: an unknown release 404, no file 400, the same name twice 409.
    const version = unique("files@1.0.0");
    await expectJson(await mainApi(request).post(`/organizations/${project.org}/releases/`, { version, projects: [project.slug] }), 201, "release");
    const file = (name: string) => ({ file: { name: "a.js", mimeType: "application/javascript", buffer: Buffer.from("a") }, name });
    await refused(
      request.post(url(`/releases/${encodeURIComponent(unique("none"))}/files/`), { headers: headers(), multipart: file("~/a.js") }),
      404,
      /Release not found/,
    );
    await refused(
      request.post(url(`/releases/${encodeURIComponent(version)}/files/`), { headers: headers(), multipart: { name: "~/a.js" } }),
      400,
      /Missing uploaded file/,
    );
    await expectJson(
      await request.post(url(`/releases/${encodeURIComponent(version)}/files/`), { headers: headers(), multipart: file("~/a.js") }),
      201,
      "release file",
    );
    await refused(
      request.post(url(`/releases/${encodeURIComponent(version)}/files/`), { headers: headers(), multipart: file("~/a.js") }),
      409,
      /already exists/,
    );
  });
});
