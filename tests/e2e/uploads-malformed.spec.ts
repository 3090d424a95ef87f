// Malformed uploads over HTTP against a production build (sentry-protocol.md §6): the chunk-upload options, a bundle
// uploaded in gzip parts by hand, and hostile bodies: 4xx or an assemble state "error" with a detail, never a 500.
import { createHash } from "node:crypto";
import net from "node:net";
import { gzipSync } from "node:zlib";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { strToU8, zipSync } from "fflate";
import { ownerApiToken } from "./helpers";
import { createProject, expectJson, mainApi, type TestProject, unique } from "./ingest-helpers";
import { SERVERS } from "./servers";

let project: TestProject;

test.beforeAll(async ({ request }) => {
  project = await createProject(mainApi(request), { platform: "javascript" });
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
