// sentry-native crashes end to end (issue 19), on SQLite and PostgreSQL, posted over HTTP to the real intake as
// Crashpad's uploader posts them (multipart, `upload_file_minidump` beside the run folder's attachments): the
// `__sentry-event` and `__sentry-breadcrumb1`/`2` msgpack parts, made by @msgpack/msgpack as sentry-native lays them
// out (tests/helpers/sentry-native.ts), are read into the crash's event and not kept as attachments (Relay's
// processor/event.rs); a real minidump (tests/fixtures/minidumps) compressed by the test with gzip (zlib) and Debian's
// zstd is stored decompressed under its name without the extension (Relay's endpoints/minidump.rs; xz and bzip2 are
// refused with 400, see src/ingest/minidump-decoders.ts); bad
// parts are dropped with a note and the crash kept; a bomb is 413, a broken container 400.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import zlib from "node:zlib";
import { after, before, describe, test } from "node:test";
import { encode } from "@msgpack/msgpack";
import { listEventAttachments } from "../../src/core/attachments";
import { downloadBytes } from "../helpers/download";
import { stagingDir } from "../../src/ingest";
import type { OpenDbOptions } from "../../src/storage/db";
import { crashpadBody } from "../helpers/crashpad";
import { type TestIntake, type TestProject, startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";
import { breadcrumbFiles, nativeEventPart, nativeParts, usecTime } from "../helpers/sentry-native";

const MINIDUMP = readFileSync(new URL("../fixtures/minidumps/simple-crashpad.dmp", import.meta.url));

/** Compressed by the real tools: zlib's gzip and Debian's zstd (decoded), xz and bzip2 (refused) (scripts/test.sh installs them). */
const compress: Record<string, [string, (b: Buffer) => Buffer]> = {
  gzip: [".gz", (b) => zlib.gzipSync(b)],
  zstd: [".zst", (b) => execFileSync("zstd", ["-q", "-c", "-19"], { input: b, maxBuffer: 1 << 30 })],
};
const refused: Record<string, [string, (b: Buffer) => Buffer]> = {
  xz: [".xz", (b) => execFileSync("xz", ["-c", "-6"], { input: b, maxBuffer: 1 << 30 })],
  bzip2: [".bz2", (b) => execFileSync("bzip2", ["-c", "-9"], { input: b, maxBuffer: 1 << 30 })],
};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function postCrash(t: TestIntake, p: TestProject, fields: [string, string][], files: { field: string; filename: string; data: Buffer }[]) {
  const form = crashpadBody(fields, files);
  const res = await fetch(`${t.url("minidump", p)}?sentry_key=${p.key.publicKey}`, {
    method: "POST",
    headers: { "content-type": form.contentType, "user-agent": "Crashpad/0.8.0" },
    body: form.body,
  });
  return { status: res.status, text: await res.text() };
}

const dumpFile = (data: Buffer = MINIDUMP, filename = "crash.dmp") => ({ field: "upload_file_minidump", filename, data });

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`sentry-native crashes on ${dialect}`, { timeout: 300_000 }, () => {
    let t: TestIntake;
    let drop: (() => Promise<void>) | undefined;
    before(async () => {
      let db: OpenDbOptions | undefined;
      if (dialect === "postgres") {
        const fresh = await freshPgDatabase(`native_${randomBytes(4).toString("hex")}`);
        drop = fresh.drop;
        db = { dialect: "postgres", url: fresh.url };
      }
      t = await startTestIntake({ db });
    });
    after(async () => {
      await t?.close();
      await drop?.();
    });
    const owner = () => t.core.as(t.owner);
    const stored = async (p: TestProject, answer: { status: number; text: string }) => {
      assert.equal(answer.status, 200, answer.text);
      const eventId = answer.text.replace(/-/g, "");
      const event = await t.waitForEvent(p, eventId);
      await t.settle();
      const { attachments } = await listEventAttachments(owner(), t.org, p.slug, eventId);
      return { eventId, event, data: JSON.parse(event.data) as Json, attachments };
    };

    test("__sentry-event and both breadcrumb files are read into the crash: the attached event's fields, the newest max_breadcrumbs in order", async () => {
      const p = t.projects[0];
      const crashId = randomUUID();
      const start = Date.now() / 1000 - 600;
      // 250 breadcrumbs with max_breadcrumbs 100: file 1 holds 200-249 (started afresh), file 2 holds 100-199.
      const crumbs = Array.from({ length: 250 }, (_, i) => ({
        timestamp: usecTime(start + i),
        type: "default",
        category: "app",
        message: `crumb ${i}`,
        level: "info",
      }));
      const [file1, file2] = breadcrumbFiles(crumbs, 100);
      const event = nativeEventPart({
        event_id: crashId,
        level: "fatal",
        release: "native-app@2.0.1",
        environment: "staging",
        dist: "42",
        user: { id: "u-7", email: "ann@example.com" },
        tags: { backend: "crashpad", "build.flavor": "release" },
        contexts: { os: { name: "Linux", version: "6.1.0", type: "os" }, app: { app_name: "native-app", type: "app" } },
        extra: { attached: true },
        sdk: { name: "sentry.native", version: "0.12.2", packages: [{ name: "github:getsentry/sentry-native", version: "0.12.2" }] },
        fingerprint: null,
      });
      const answer = await postCrash(
        t,
        p,
        [
          ["sentry[release]", "form@0.0.1"],
          ["prod", "native-app"],
        ],
        [dumpFile(), ...nativeParts(event, file1, file2)],
      );
      assert.equal(answer.text, crashId, "answered with the attached event's id");
      const { event: row, data, attachments } = await stored(p, answer);
      assert.equal(row.release, "native-app@2.0.1", "the attached event's release wins over the form's");
      assert.equal(row.environment, "staging");
      assert.equal(row.level, "fatal");
      assert.equal(row.platform, "native");
      assert.equal(data.user.id, "u-7");
      assert.equal(data.user.email, "ann@example.com");
      assert.equal(data.sdk.name, "sentry.native");
      assert.equal(data.contexts.os.name, "Linux", "the attached os context, not the minidump's");
      assert.equal(data.contexts.app.app_name, "native-app");
      assert.equal(data.extra.prod, "native-app", "form annotations kept beside the attached extra");
      assert.equal(data.extra.attached, true);
      const tags = new Map(data.tags as [string, string][]);
      assert.equal(tags.get("backend"), "crashpad");
      assert.equal(tags.get("build.flavor"), "release");
      const messages = (data.breadcrumbs.values as Json[]).map((c) => c.message);
      assert.deepEqual(
        messages,
        Array.from({ length: 100 }, (_, i) => `crumb ${150 + i}`),
      );
      assert.equal(data.breadcrumbs.values[0].category, "app");
      // (The fixture was written in 2020: normalization notes its past timestamp, nothing about the parts.)
      assert.deepEqual(
        ((data.errors ?? []) as Json[]).filter((e) => String(e.name).startsWith("__sentry")),
        [],
      );
      assert.deepEqual(
        attachments.map((a) => a.name),
        ["crash.dmp"],
        "the msgpack parts are not kept as attachments",
      );
    });

    test("one breadcrumb file only, the second empty (fewer breadcrumbs than max_breadcrumbs): kept as they are", async () => {
      const p = t.projects[1];
      const crumbs = Array.from({ length: 3 }, (_, i) => ({ timestamp: usecTime(Date.now() / 1000 - 60 + i), message: `only ${i}` }));
      const [file1, file2] = breadcrumbFiles(crumbs, 100);
      assert.equal(file2.length, 0);
      const { data } = await stored(p, await postCrash(t, p, [], [dumpFile(), ...nativeParts(nativeEventPart({ level: "fatal" }), file1, file2)]));
      assert.deepEqual(
        (data.breadcrumbs.values as Json[]).map((c) => c.message),
        ["only 0", "only 1", "only 2"],
      );
    });

    for (const [format, [ext, pack]] of Object.entries(compress)) {
      test(`a ${format}-compressed minidump file is stored decompressed, named without ${ext}`, async () => {
        const p = t.projects[0];
        const packed = pack(MINIDUMP);
        assert.notEqual(packed.subarray(0, 4).toString("latin1"), "MDMP");
        const { eventId, event, attachments } = await stored(
          p,
          await postCrash(t, p, [["sentry[environment]", format]], [dumpFile(packed, `crash.dmp${ext}`)]),
        );
        assert.equal(event.environment, format);
        assert.equal(attachments.length, 1);
        assert.equal(attachments[0]!.name, "crash.dmp");
        assert.equal(attachments[0]!.attachmentType, "event.minidump");
        assert.equal(attachments[0]!.size, MINIDUMP.byteLength);
        const body = await downloadBytes(owner(), t.org, p.slug, eventId, String(attachments[0]!.id));
        assert.ok(body.equals(MINIDUMP), "the bytes of the minidump, decompressed");
      });
    }

    test("xz and bzip2 minidumps, in a form or as a raw body, are refused with 400 and a reason; nothing is stored", async () => {
      const p = t.projects[1];
      for (const [format, [ext, pack]] of Object.entries(refused)) {
        const form = await postCrash(t, p, [["sentry", JSON.stringify({ release: `refused-${format}@1` })]], [dumpFile(pack(MINIDUMP), `crash.dmp${ext}`)]);
        assert.equal(form.status, 400, form.text);
        assert.match(form.text, new RegExp(`${format}-compressed, which Faultline does not take`));
        const raw = await fetch(`${t.url("minidump", p)}?sentry_key=${p.key.publicKey}`, {
          method: "POST",
          headers: { "content-type": "application/octet-stream" },
          body: new Uint8Array(pack(MINIDUMP)),
        });
        assert.equal(raw.status, 400, format);
        assert.match(await raw.text(), /does not take: send it uncompressed, or compressed with gzip or zstd/);
      }
    });

    test("bad msgpack parts are dropped with a note in the event's errors; the crash and its minidump are kept", async () => {
      const p = t.projects[0];
      const good = encode({ timestamp: usecTime(Date.now() / 1000 - 5), message: "before the cut" });
      const parts: [string, string, Buffer][] = [
        ["truncated event", "__sentry-event", Buffer.from(encode({ release: "cut@1", user: { id: "x" } })).subarray(0, 12)],
        ["nested 200,000 deep", "__sentry-event", Buffer.concat([Buffer.from([0x81, 0xa1, 0x61]), Buffer.alloc(200_000, 0x91), Buffer.from([0x90])])],
        ["a map declaring 4 billion entries", "__sentry-event", Buffer.from([0xdf, 0xff, 0xff, 0xff, 0xff, 0xa1, 0x61])],
        ["an array, not a map", "__sentry-event", Buffer.from(encode(["release", "x"]))],
        ["2 MiB", "__sentry-event", Buffer.from(encode({ message: "m".repeat(2 << 20) }))],
        ["an unused type byte", "__sentry-breadcrumb1", Buffer.concat([Buffer.from(good), Buffer.from([0xc1])])],
      ];
      for (const [label, field, bytes] of parts) {
        const { data, attachments } = await stored(
          p,
          await postCrash(t, p, [["sentry[environment]", "hostile"]], [dumpFile(), { field, filename: field, data: bytes }]),
        );
        assert.equal(data.environment, "hostile", label);
        assert.deepEqual(
          attachments.map((a) => a.attachmentType),
          ["event.minidump"],
          label,
        );
        const noted = (data.errors as Json[] | undefined)?.find((e) => e.name === field);
        assert.ok(noted && typeof noted.reason === "string" && noted.reason.length > 0, `${label}: ${JSON.stringify(data.errors)}`);
        assert.notEqual(data.release, "cut@1", label);
      }
      // A breadcrumb file cut in the middle of its last breadcrumb (the process died while appending), and extension
      // and binary values: what can be read is kept.
      const crumbs = Buffer.concat([
        Buffer.from(good),
        Buffer.from(encode({ timestamp: usecTime(Date.now() / 1000 - 4), message: "ext", data: { raw: new Uint8Array([1, 2]) } })),
        Buffer.from(encode({ message: "cut off here" })).subarray(0, 6),
      ]);
      const ext = Buffer.from([0x82, 0xa5, ...Buffer.from("level"), 0xa5, ...Buffer.from("fatal"), 0xa3, ...Buffer.from("odd"), 0xd4, 0x05, 0x01]);
      const { data } = await stored(p, await postCrash(t, p, [], [dumpFile(), ...nativeParts(ext, crumbs, Buffer.alloc(0))]));
      assert.deepEqual(
        (data.breadcrumbs.values as Json[]).map((c) => c.message),
        ["before the cut", "ext"],
      );
      const reasons = (data.errors as Json[]).map((e) => `${e.name}: ${e.reason}`).join("\n");
      assert.match(reasons, /__sentry-breadcrumb1: cut short after 2 breadcrumb/);
      assert.match(reasons, /__sentry-event: 1 binary or extension value/);
    });

    if (dialect === "sqlite") {
      for (const [format, [ext, pack]] of Object.entries(compress)) {
        test(`a ${format} bomb (a minidump that decompresses past 100 MiB) is refused with 413, nothing staged`, async () => {
          const p = t.projects[1];
          const bomb = pack(Buffer.concat([MINIDUMP, Buffer.alloc(101 * 1024 * 1024)]));
          assert.ok(bomb.byteLength < 1024 * 1024, `${format}: ${bomb.byteLength} bytes`);
          const answer = await postCrash(t, p, [], [dumpFile(bomb, `bomb.dmp${ext}`)]);
          assert.equal(answer.status, 413, answer.text);
          assert.match(answer.text, /decompresses to more than/);
          await t.settle();
          assert.deepEqual(readdirSync(stagingDir(t.dataDir)), [], "no staging file left behind");
        });
        test(`a broken ${format} container is refused with 400`, async () => {
          const p = t.projects[1];
          const packed = pack(MINIDUMP);
          const broken = Buffer.concat([packed.subarray(0, Math.min(packed.length - 8, 64)), randomBytes(2000)]);
          const answer = await postCrash(t, p, [], [dumpFile(broken, `broken.dmp${ext}`)]);
          assert.equal(answer.status, 400, answer.text);
          assert.match(answer.text, new RegExp(`${format}-compressed but does not decompress|window larger`));
        });
      }
    }
  });
}
