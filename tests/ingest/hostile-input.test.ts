// Issue 16's intake findings over real HTTP, each named after its finding: what an attacker or a broken SDK sends gets
// a clear 4xx (never 503, never a reset), and the intake goes on taking valid events. The same inputs, and thousands
// more, run against a production server on SQLite and PostgreSQL in tests/hostile/corpus.test.ts.
import assert from "node:assert/strict";
import zlib from "node:zlib";
import { after, before, describe, test } from "node:test";
import { INGEST_LIMITS } from "../../src/config/limits";
import { type TestIntake, type TestProject, startTestIntake } from "../helpers/intake";
import { rawConnection as rawTo } from "../helpers/raw-connection";

let t: TestIntake;
let p: TestProject;
before(async () => {
  t = await startTestIntake();
  p = t.projects[0];
});
after(() => t.close());

const hex = () => crypto.randomUUID().replace(/-/g, "");
const keyQuery = () => `?sentry_key=${p.key.publicKey}&sentry_version=7`;
const post = (url: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", body, headers, duplex: "half" } as RequestInit);
const detail = async (r: Response) => ((await r.json()) as { detail: string }).detail;

/** A valid event afterwards is taken and digested: the intake and the digest go on. */
async function stillServing(): Promise<void> {
  const id = hex();
  const r = await post(t.url("envelope", p, keyQuery()), `{"event_id":"${id}"}\n{"type":"event"}\n{"message":"still serving"}\n`);
  assert.equal(r.status, 200);
  await t.waitForEvent(p, id);
}

describe("issue 16: hostile input at the intake", () => {
  test("hostile input #1: an unauthenticated gzip body of item headers is refused on its header line (401), an authenticated one at the item cap (400)", async () => {
    const items = (header: string) =>
      zlib.gzipSync(Buffer.concat([Buffer.from(`${header}\n`), Buffer.alloc(20 * 1024 * 1024, '{"type":"a"}\n')]), { level: 9 });
    const anonymous = items("{}");
    assert.ok(anonymous.length < 200 * 1024, "small on the wire");
    let r = await post(t.url("envelope"), new Uint8Array(anonymous), { "content-encoding": "gzip" });
    assert.equal(r.status, 401);
    r = await post(t.url("envelope"), new Uint8Array(items(JSON.stringify({ dsn: p.dsn }))), { "content-encoding": "gzip" });
    assert.equal(r.status, 400);
    assert.match(await detail(r), new RegExp(`at most ${INGEST_LIMITS.maxItemsPerEnvelope} items`));
    await stillServing();
  });

  test("hostile input #2: a public key that is not 32 hex characters is refused before any lookup, over HTTP and in-process", async () => {
    const huge = "a".repeat(60 * 1024);
    for (const r of [
      await post(t.url("envelope", p, `?sentry_key=${"z".repeat(32)}`), `{}\n{"type":"event"}\n{}\n`),
      await post(t.url("envelope"), `${JSON.stringify({ dsn: p.dsn.replace(p.key.publicKey, huge) })}\n{"type":"event"}\n{}\n`),
    ]) {
      assert.equal(r.status, 401);
      assert.match(await detail(r), /32 hexadecimal characters/);
    }
    const inProcess = await t.submitEnvelope({
      body: Buffer.from(`{}\n{"type":"event"}\n{}\n`),
      clientIp: "203.0.113.1",
      auth: { projectId: String(p.id), publicKey: "a".repeat(1024 * 1024) },
    });
    assert.deepEqual(inProcess.ok ? null : [inProcess.status, inProcess.reason], [401, "bad_auth"]);
  });

  test("hostile input #4: stacked Content-Encodings are refused with 400 before any decoding", async () => {
    let body = Buffer.from(`{"event_id":"${hex()}"}\n{"type":"event"}\n{}\n`);
    for (let i = 0; i < 3; i++) body = zlib.brotliCompressSync(body);
    for (const encoding of ["br, br, br", Array(5000).fill("br").join(",")]) {
      const r = await post(t.url("envelope", p, keyQuery()), new Uint8Array(body), { "content-encoding": encoding });
      assert.equal(r.status, 400, encoding.slice(0, 12));
    }
    await stillServing();
  });

  test("hostile input #5: headers and payloads nested 10,000 levels deep are a 400, not a 503", async () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const cases: [string, string, string][] = [
      ["envelope header", "envelope", `{"event_id":"${hex()}","x":${deep}}\n{"type":"event"}\n{}\n`],
      ["item header", "envelope", `{"event_id":"${hex()}"}\n{"type":"event","x":${deep}}\n{}\n`],
      ["event without an event id in the header", "envelope", `{}\n{"type":"event"}\n{"extra":${deep}}\n`],
      ["store body", "store", `{"extra":${deep}}`],
      ["security report", "security", `[{"type":"csp-violation","body":${deep}}]`],
    ];
    for (const [name, endpoint, body] of cases) {
      const r = await post(t.url(endpoint, p, keyQuery()), body);
      assert.equal(r.status, 400, name);
      assert.ok((await detail(r)).length > 0, name);
    }
    // An event whose id the header gives is only outlined at the intake, as Relay does: 200, and the digest counts it
    // as invalid JSON instead of overflowing its stack.
    const r = await post(t.url("envelope", p, keyQuery()), `{"event_id":"${hex()}"}\n{"type":"event"}\n{"extra":${deep}}\n`);
    assert.equal(r.status, 200);
    await stillServing();
  });

  test("hostile input #6: a chunked body over the limit is answered 413 with Connection: close, which the client reads (no reset)", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x61);
    let sent = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        // Far past the plain limit, then stop (the client would stop on its own once it has read the answer).
        if (sent > INGEST_LIMITS.maxDecompressedBodyBytes + 64 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const r = await post(t.url("envelope", p, keyQuery()), endless);
    assert.equal(r.status, 413);
    assert.equal(r.headers.get("connection"), "close");
    assert.match(await detail(r), /larger than/);
    await stillServing();
  });

  test("hostile input #6: a compressed body between the compressed and decompressed limits is answered 413, not reset", async () => {
    const size = INGEST_LIMITS.maxCompressedBodyBytes + 1024 * 1024;
    assert.ok(size < INGEST_LIMITS.maxDecompressedBodyBytes);
    const r = await post(t.url("envelope", p, keyQuery()), new Uint8Array(size), { "content-encoding": "gzip", "content-length": String(size) });
    assert.equal(r.status, 413);
    assert.equal(r.headers.get("connection"), "close");
    await stillServing();
  });

  test(
    "hostile input #6: on the socket, the 413 arrives while the body is still being sent, and the connection ends without a reset",
    { timeout: 30_000 },
    async () => {
      const c = await rawConnection();
      await c.write(`POST /api/${p.id}/envelope/${keyQuery()} HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n`);
      const block = Buffer.alloc(256 * 1024, 0x61);
      const frame = Buffer.concat([Buffer.from(`${block.length.toString(16)}\r\n`), block, Buffer.from("\r\n")]);
      // Keep sending until the answer has come, as an SDK streaming a large body would.
      while (!c.answered() && !c.errored()) await c.write(frame);
      await c.end();
      assert.equal(c.errored(), null, "no reset");
      assert.match(c.received(), /^HTTP\/1\.1 413 /);
      assert.match(c.received(), /\r\nconnection: close\r\n/i);
    },
  );

  test(
    "hostile input: a request line of a megabyte is answered 431 with a detail while the client still sends it, and the connection ends without a reset",
    { timeout: 30_000 },
    async () => {
      // Five times: Node's own answer (a bare 431, then the socket destroyed) failed this every time, with EPIPE.
      for (let round = 0; round < 5; round++) {
        const c = await rawConnection();
        await c.write(`GET /api/0/organizations/x/personal-data/export/?field=id&value=`);
        const block = "x".repeat(64 * 1024);
        let sent = 0;
        // Until the answer has come, then the rest of the megabyte: the client has not read the answer yet and goes on.
        for (; !c.answered() && !c.errored(); sent += block.length) {
          await c.write(block);
          await new Promise((resolve) => setImmediate(resolve));
        }
        for (; sent < 1 << 20 && !c.errored(); sent += block.length) await c.write(block);
        await c.end();
        assert.equal(c.errored(), null, `no reset (round ${round})`);
        assert.match(c.received(), /^HTTP\/1\.1 431 /);
        assert.match(c.received(), /\r\nconnection: close\r\n/i);
        assert.match(c.received(), /"detail":"the request line and headers are larger than \d+ bytes"/);
      }
      await stillServing();
    },
  );
});

describe("requests Next.js cannot read", () => {
  test("a Next-Router-State-Tree header Next cannot parse (which it answered 500, to anyone) is a 400 naming the header; so is an API path that does not decode", async () => {
    const bad = ["[1,2", "%zz", encodeURIComponent("[".repeat(5000)), "x".repeat(10_000), "{}", encodeURIComponent('["",{"children":1}]')];
    for (const value of bad) {
      const r = await fetch(`${t.origin}/en/sign-in`, { headers: { "next-router-state-tree": value } });
      assert.equal(r.status, 400, value.slice(0, 40));
      assert.match(await detail(r), /^Next-Router-State-Tree: /);
    }
    // An API path whose percent-encoding does not decode is the API's 400 ({"detail"}), not Next's HTML page.
    for (const path of ["/api/0/organizations/%zz/", "/api/0/projects/a/%E0%A4%A/issues/"]) {
      const r = await fetch(`${t.origin}${path}`);
      assert.equal(r.status, 400, path);
      assert.equal(await detail(r), "The path's percent-encoding is malformed");
    }
    // One the router really sends goes on to the pages (here, the test's stand-in for Next answers 404).
    const good = await fetch(`${t.origin}/en/sign-in`, {
      headers: { "next-router-state-tree": encodeURIComponent(JSON.stringify(["", { children: ["__PAGE__", {}] }])) },
    });
    assert.equal(good.status, 404);
  });
});

describe("NUL characters before the pages (PostgreSQL cannot store one: a page's filter or a form's field with one answered 500 there)", () => {
  test("a NUL in a page's path or query is a 400 naming where it is; the intake's paths and a plain page are untouched", async () => {
    for (const [path, where] of [
      ["/en/orgs/acme/projects/web/issues?environment=a%00b", 'the parameter "environment"'],
      ["/en/orgs/acme/issues?query=%00&sort=date", 'the parameter "query"'],
      ["/en/orgs/a%00b", "the path"],
      ["/en/sign-in?a%00=1", 'the parameter "a"'],
      ["/api/0/organizations/?cursor=%00", 'the parameter "cursor"'],
    ]) {
      const r = await fetch(`${t.origin}${path}`);
      assert.equal(r.status, 400, path);
      assert.equal(await detail(r), `${where} must not contain NUL characters`, path);
    }
    // Percent-encoding of other control characters is no NUL (the test's stand-in for Next answers 404).
    assert.equal((await fetch(`${t.origin}/en/sign-in?q=%01%1f`)).status, 404);
    await stillServing();
  });

  test("a server action's field may hold a NUL (the action answers it inline; PostgreSQL's storage refuses it); arguments nested past any action's are a 400", async () => {
    const action = (contentType: string, body: string) =>
      post(`${t.origin}/en/orgs/acme/settings/teams`, body, { "next-action": "0".repeat(40), "content-type": contentType });
    const form = (name: string, value: string) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n--b--\r\n`;
    // The test's stand-in for Next answers 404 to whatever reaches it.
    for (const [type, body] of [
      ["multipart/form-data; boundary=b", form("1_slug", "te\u0000am")],
      ["text/plain;charset=UTF-8", JSON.stringify(["en", "acme", { slug: "te\u0000am" }])],
      // A file's bytes may hold anything, and a user's text may look like brackets.
      ["multipart/form-data; boundary=b", `--b\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n\u0000\u0001\r\n--b--\r\n`],
      ["multipart/form-data; boundary=b", form("1_comment", "[".repeat(1000))],
    ] as const) {
      const r = await action(type, body);
      assert.equal(r.status, 404, body.slice(0, 80));
      assert.equal(await detail(r), "Not found");
    }
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    for (const [type, body] of [
      ["text/plain;charset=UTF-8", deep],
      ["multipart/form-data; boundary=b", form("0", deep)],
      // In a part's header (the field's name) busboy finds a NUL malformed.
      ["multipart/form-data; boundary=b", form("1_sl\u0000ug", "team")],
    ] as const) {
      const r = await action(type, body);
      assert.equal(r.status, 400, body.slice(0, 80));
      assert.equal(await detail(r), "Malformed server action payload");
    }
  });
});

test("an action forwarded between pages (Next.js fetches it from this server with x-action-forwarded, at an address of its bundle's that fails) is answered 404 by the listener", async () => {
  for (const path of ["/[locale]/(auth)/forgot-password", "/en/sign-in"]) {
    const r = await post(`${t.origin}${path}`, '["en"]', {
      "next-action": "ab".repeat(20),
      "x-action-forwarded": "1",
      "content-type": "text/plain;charset=UTF-8",
    });
    assert.equal(r.status, 404, path);
    assert.equal(await detail(r), "Server actions are not forwarded between pages: post the action to the page it belongs to");
  }
});

describe("forms posted without JavaScript (Next.js takes any multipart POST to a page as a server action, and answered 500 to one it could not decode)", () => {
  const id = "ab".repeat(20);
  const form = (fields: [string, string][]) =>
    fields.map(([name, value]) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join("") + "--b--\r\n";
  const postForm = (fields: [string, string][], headers: Record<string, string> = {}, path = "/en/sign-in") =>
    post(`${t.origin}${path}`, form(fields), { "content-type": "multipart/form-data; boundary=b", ...headers });

  test("a form that names no action, an id Next.js cannot know, or a descriptor or bound arguments that are not JSON: 4xx with a detail", async () => {
    for (const [fields, status, expected] of [
      [[["x", "1"]], 400, "A form posted to a page must name a server action"],
      [[["$ACTION_ID_eeee", ""]], 404, /^No such server action/],
      [[[`$ACTION_ID_${"g".repeat(40)}`, ""]], 404, /^No such server action/],
      [
        [
          ["$ACTION_REF_7", ""],
          ["$ACTION_7:0", "{"],
        ],
        400,
        "Malformed server action payload",
      ],
      [[["$ACTION_REF_7", ""]], 400, "Malformed server action payload"],
      [
        [
          ["$ACTION_REF_1", ""],
          ["$ACTION_1:0", `{ "id": "${id}" }`],
        ],
        400,
        "Malformed server action payload",
      ],
      [
        [
          ["$ACTION_REF_1", ""],
          ["$ACTION_1:0", `{"id":"${id}","bound":"$@1"}`],
          ["$ACTION_1:1", "[{"],
        ],
        400,
        "Malformed server action payload",
      ],
      [
        [
          ["$ACTION_REF_1", ""],
          ["$ACTION_1:0", `{"id":"${id}","bound":"$@1"}`],
          ["$ACTION_1:1", "[".repeat(5000) + "]".repeat(5000)],
        ],
        400,
        "Malformed server action payload",
      ],
    ] as const) {
      const r = await postForm(fields as unknown as [string, string][]);
      assert.equal(r.status, status, JSON.stringify(fields));
      const got = await detail(r);
      if (typeof expected === "string") assert.equal(got, expected);
      else assert.match(got, expected);
    }
  });

  test("from another origin, or an Origin that is no URL: 403; a well-formed one goes on to the pages, as do the API's multipart posts", async () => {
    const named: [string, string][] = [
      ["$ACTION_REF_1", ""],
      ["$ACTION_1:0", `{"id":"${id}","bound":"$@1"}`],
      ["$ACTION_1:1", '["en"]'],
    ];
    const evil = await postForm(named, { origin: "https://evil.example" });
    assert.equal(evil.status, 403);
    assert.equal(await detail(evil), "Cross-origin server action refused");
    const sandboxed = await postForm(named, { origin: "null" });
    assert.equal(sandboxed.status, 403);
    assert.equal(await detail(sandboxed), "Malformed Origin header");
    // The test's stand-in for Next answers 404 "Not found" to whatever reaches it.
    for (const [fields, path] of [
      [named, "/en/sign-in"],
      [[[`$ACTION_ID_${id}`, ""]], "/en/orgs"],
      // A field's NUL goes on to the action, which answers it inline.
      [
        [
          [`$ACTION_ID_${id}`, ""],
          ["name", "a\u0000b"],
        ],
        "/en/orgs",
      ],
      [[["file", "x"]], "/api/0/organizations/acme/chunk-upload/"],
    ] as const) {
      const r = await postForm(fields as unknown as [string, string][], { origin: t.origin }, path);
      assert.equal(r.status, 404, path);
      assert.equal(await detail(r), "Not found", path);
    }
  });
});

describe("methods Faultline does not serve", () => {
  test("TRACE (which the framework answered 500) is a 405 naming the methods served, on the intake's paths and everywhere else; TRACK a 400", async () => {
    for (const path of ["/api/0/", "/en/orgs", `/api/${p.id}/envelope/${keyQuery()}`]) {
      const c = await rawConnection();
      await c.write(`TRACE ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      await c.end();
      assert.equal(c.errored(), null, `${path}: no reset`);
      assert.match(c.received(), /^HTTP\/1\.1 405 /, path);
      assert.match(c.received(), /\r\nallow: [A-Z]+(, [A-Z]+)*\r\n/i, path);
    }
    const c = await rawConnection();
    await c.write("TRACK /api/0/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await c.end();
    assert.equal(c.errored(), null, "TRACK: no reset");
    assert.match(c.received(), /^HTTP\/1\.1 400 [^]*"detail":"the request is not valid HTTP\/1\.1"/);
  });

  test("CONNECT (Node closed the connection without a word) is a 405: Faultline is not a proxy", async () => {
    for (const target of ["127.0.0.1:443", "example.com:80"]) {
      const c = await rawConnection();
      await c.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
      await c.end();
      assert.equal(c.errored(), null, "no reset");
      assert.match(c.received(), /^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      assert.match(c.received(), /\r\nconnection: close\r\n/i);
      assert.match(c.received(), /"detail":"CONNECT is not supported: Faultline is not a proxy"/);
    }
    await stillServing();
  });
});

/** A raw connection to the intake's server. */
const rawConnection = () => rawTo(Number(new URL(t.origin).port));
