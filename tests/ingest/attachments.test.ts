// Attachments and minidumps end to end (issue 19), on SQLite (files in the data dir) and PostgreSQL (chunks in the
// database): the official @sentry/node 11.5.0 (scope.addAttachment, hint attachments with a view hierarchy) and
// Debian's python3-sentry-sdk 1.9.10 (scope.add_attachment) through the real intake, spool and digest; a real
// Crashpad minidump (tests/fixtures/minidumps, see SOURCE.md there) posted as Crashpad's uploader posts it (gzip'd
// multipart, annotations and sentry[…] fields, the key in the query); the standalone attachment endpoint; the core's
// list and download with the bytes as sent; an attachment staged and acknowledged before any digest ran is stored by
// a digest started afterwards (a restart between acknowledgement and digest).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { after, before, describe, test } from "node:test";
import { listEventAttachments } from "../../src/core/attachments";
import { downloadBytes } from "../helpers/download";
import { updateProject } from "../../src/core/projects";
import { startDigestWorker } from "../../src/digest/spawn";
import { spoolDir, stagingDir } from "../../src/ingest";
import { NOT_SYMBOLICATED } from "../../src/protocol/minidump-event";
import type { OpenDbOptions } from "../../src/storage/db";
import { type TestIntake, startTestIntake } from "../helpers/intake";
import { freshPgDatabase } from "../helpers/pg";
import { makePng } from "../helpers/png";
import { crashpadBody } from "../helpers/crashpad";

const MINIDUMP = readFileSync(new URL("../fixtures/minidumps/simple-crashpad.dmp", import.meta.url));

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { timeout: 30_000 }, (err, out, stderr) =>
      err ? reject(new Error(`${file} ${args[0]}: ${stderr || err.message}`)) : resolve(out.trim()),
    ),
  );
}

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`issue 19 attachments and minidumps on ${dialect}`, { timeout: 300_000 }, () => {
    let t: TestIntake;
    let drop: (() => Promise<void>) | undefined;
    let db: OpenDbOptions | undefined;
    const marker = `att${randomBytes(5).toString("hex")}`;
    before(async () => {
      if (dialect === "postgres") {
        const fresh = await freshPgDatabase(`attachments_${randomBytes(4).toString("hex")}`);
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

    test("@sentry/node 11.5.0: scope.addAttachment and a hint's view hierarchy are stored compressed, listed and downloaded as sent", async () => {
      const p = t.projects[0];
      const png = makePng(64, 48, [200, 40, 40]);
      const file = path.join(t.dataDir, "shot.png");
      (await import("node:fs")).writeFileSync(file, png);
      const eventId = await run(process.execPath, ["tests/ingest/sdk/node-attachments.mjs", p.dsn, marker, file]);
      await t.waitForEvent(p, eventId);
      await t.settle();
      const { attachments, canDownload } = await listEventAttachments(owner(), t.org, p.slug, eventId);
      assert.equal(canDownload, true);
      const byName = new Map(attachments.map((a) => [a.name, a]));
      assert.deepEqual([...byName.keys()].sort(), ["app.log", "screenshot.png", "view-hierarchy.json"]);
      assert.equal(byName.get("screenshot.png")!.contentType, "image/png");
      assert.equal(byName.get("screenshot.png")!.size, png.byteLength);
      assert.equal(byName.get("view-hierarchy.json")!.attachmentType, "event.view_hierarchy");
      assert.equal(byName.get("app.log")!.attachmentType, "event.attachment");
      const shot = await downloadBytes(owner(), t.org, p.slug, eventId, String(byName.get("screenshot.png")!.id));
      assert.ok(shot.equals(png), "the screenshot's bytes as sent");
      assert.equal(byName.get("screenshot.png")!.sha1, createHash("sha1").update(png).digest("hex"));
      const log = await downloadBytes(owner(), t.org, p.slug, eventId, String(byName.get("app.log")!.id));
      assert.equal(log.toString(), `${marker} started\npassword=hunter2\n`);
      // Stored outside the events table: files in the data dir on SQLite, chunks on PostgreSQL.
      if (dialect === "sqlite") assert.ok(readdirSync(path.join(t.dataDir, "attachments")).some((d) => d !== "incoming"));
    });

    test("python3-sentry-sdk 1.9.10: scope.add_attachment text and bytes", async () => {
      const p = t.projects[1];
      const eventId = await run("/usr/bin/python3", ["tests/ingest/sdk/python-attachments.py", p.dsn, marker]);
      await t.waitForEvent(p, eventId);
      await t.settle();
      const { attachments } = await listEventAttachments(owner(), t.org, p.slug, eventId);
      const csv = attachments.find((a) => a.name === "report.csv");
      const bin = attachments.find((a) => a.name === "blob.bin");
      assert.ok(csv && bin, `both attachments: ${attachments.map((a) => a.name).join(", ")}`);
      assert.equal(csv.contentType, "text/csv");
      assert.equal((await downloadBytes(owner(), t.org, p.slug, eventId, String(csv.id))).toString(), `${marker} report.csv\nname,amount\nann,3\n`);
      assert.ok((await downloadBytes(owner(), t.org, p.slug, eventId, String(bin.id))).equals(Buffer.from(Array.from({ length: 1024 }, (_, i) => i % 256))));
    });

    test("a Crashpad minidump (gzip'd multipart, annotations, sentry[…] fields) becomes a native crash event, not symbolicated", async () => {
      const p = t.projects[0];
      const form = crashpadBody(
        [
          ["prod", "ExampleApp"],
          ["ver", "3.1.4"],
          ["sentry[release]", "example@3.1.4"],
          ["sentry[environment]", "production"],
          ["sentry[user][id]", "42"],
          ["guid", "00000000-0000-0000-0000-000000000042"],
        ],
        [{ field: "upload_file_minidump", filename: "8b2a5c7e-crash.dmp", data: MINIDUMP }],
      );
      const res = await fetch(`${t.url("minidump")}?sentry_key=${p.key.publicKey}`, {
        method: "POST",
        headers: { "content-type": form.contentType, "content-encoding": "gzip", "user-agent": "Crashpad/0.8.0" },
        body: zlib.gzipSync(form.body),
      });
      assert.equal(res.status, 200);
      const hyphenated = await res.text();
      assert.match(hyphenated, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      const eventId = hyphenated.replace(/-/g, "");
      const stored = await t.waitForEvent(p, eventId);
      await t.settle();
      assert.equal(stored.platform, "native");
      assert.equal(stored.level, "fatal");
      assert.equal(stored.release, "example@3.1.4");
      assert.equal(stored.environment, "production");
      assert.ok(stored.title.includes(NOT_SYMBOLICATED), stored.title);
      const { attachments } = await listEventAttachments(owner(), t.org, p.slug, eventId);
      assert.equal(attachments.length, 1);
      assert.equal(attachments[0]!.attachmentType, "event.minidump");
      assert.equal(attachments[0]!.name, "8b2a5c7e-crash.dmp");
      assert.equal(attachments[0]!.size, MINIDUMP.byteLength);
      assert.ok((await downloadBytes(owner(), t.org, p.slug, eventId, String(attachments[0]!.id))).equals(MINIDUMP));
    });

    test("scrubbing rules naming attachments ($attachments.'…') apply to text attachments; a binary one they name is not stored", async () => {
      const p = t.projects[1];
      const rules = { applications: { "$attachments.'notes.txt'": ["@email:replace"], "$attachments.'dump.bin'": ["@email:replace"] } };
      await updateProject(owner(), t.org, p.slug, { relayPiiConfig: JSON.stringify(rules) });
      const eventId = randomBytes(16).toString("hex");
      const text = "contact ann@example.com\n";
      const body = `{"event_id":"${eventId}"}\n{"type":"event"}\n{"message":"scrub"}\n{"type":"attachment","length":${text.length},"filename":"notes.txt","content_type":"text/plain"}\n${text}\n{"type":"attachment","length":4,"filename":"dump.bin"}\n\u0000\u0001\u0002\u0003\n{"type":"attachment","length":${text.length},"filename":"other.txt"}\n${text}\n`;
      assert.equal((await fetch(t.url("envelope", p, `?sentry_key=${p.key.publicKey}`), { method: "POST", body })).status, 200);
      await t.waitForEvent(p, eventId);
      await t.settle();
      const { attachments } = await listEventAttachments(owner(), t.org, p.slug, eventId);
      assert.deepEqual(attachments.map((a) => a.name).sort(), ["notes.txt", "other.txt"], "the binary file a rule names is dropped");
      const read = async (name: string) =>
        (await downloadBytes(owner(), t.org, p.slug, eventId, String(attachments.find((a) => a.name === name)!.id))).toString();
      assert.equal(await read("notes.txt"), "contact [email]\n");
      assert.equal(await read("other.txt"), text, "a file no rule names is kept as sent");
      await updateProject(owner(), t.org, p.slug, { relayPiiConfig: null });
    });

    test("the standalone attachment endpoint: files for an event, 201", async () => {
      const p = t.projects[1];
      const eventId = randomBytes(16).toString("hex");
      const form = crashpadBody([], [{ field: "notes", filename: "notes.txt", data: Buffer.from("first line\n"), type: "text/plain" }]);
      const res = await fetch(`${t.url(`events/${eventId}/attachments`, p)}?sentry_key=${p.key.publicKey}`, {
        method: "POST",
        headers: { "content-type": form.contentType },
        body: form.body,
      });
      assert.equal(res.status, 201);
      await t.settle();
      const { attachments } = await listEventAttachments(owner(), t.org, p.slug, eventId);
      assert.equal(attachments[0]?.name, "notes.txt");
      assert.equal(attachments[0]?.contentType, "text/plain");
    });

    test("acknowledged before a digest ran, an upload survives: a digest started afterwards stores it", async () => {
      const paused = await startTestIntake({ db: dialect === "postgres" ? db : undefined, digest: "external" });
      try {
        const p = paused.projects[0];
        const eventId = randomBytes(16).toString("hex");
        const data = randomBytes(300_000);
        const form = crashpadBody([], [{ field: "dump", filename: "big.bin", data }]);
        const res = await fetch(`${paused.url(`events/${eventId}/attachments`, p)}?sentry_key=${p.key.publicKey}`, {
          method: "POST",
          headers: { "content-type": form.contentType },
          body: form.body,
        });
        assert.equal(res.status, 201);
        assert.equal(readdirSync(stagingDir(paused.dataDir)).length, 1, "staged on disk before the answer");
        // The process that acknowledged it has no digest: one starting now (after a restart) finds record and file.
        const worker = startDigestWorker(
          {
            spoolDir: spoolDir(paused.dataDir),
            db: dialect === "postgres" ? db! : { dialect: "sqlite", file: path.join(paused.dataDir, "faultline.sqlite3") },
          },
          () => undefined,
          () => undefined,
        );
        try {
          let found = null;
          for (const start = Date.now(); !found && Date.now() - start < 15_000; await new Promise((r) => setTimeout(r, 50))) {
            found = (await paused.core.store.listAttachments(p.id, eventId))[0] ?? null;
          }
          assert.ok(found, "stored by the later digest");
          assert.equal(found.size, data.byteLength);
          assert.ok((await downloadBytes(paused.core.as(paused.owner), paused.org, p.slug, eventId, String(found.id))).equals(data));
          for (
            const start = Date.now();
            existsSync(stagingDir(paused.dataDir)) && readdirSync(stagingDir(paused.dataDir)).length > 0 && Date.now() - start < 5000;

          )
            await new Promise((r) => setTimeout(r, 50));
          assert.equal(readdirSync(stagingDir(paused.dataDir)).length, 0, "the staging file is gone once stored");
        } finally {
          await worker.stop();
        }
      } finally {
        await paused.close();
      }
    });
  });
}
