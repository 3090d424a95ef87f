// Issue 19 attachments: a download is inflated piece by piece as it is read, not whole. An attachment of 64 MiB of
// zeros is a few KiB of gzip on disk: before, the first byte of its download waited for 64 MiB inflated in memory
// (and a client that never read held them, twenty such downloads a gigabyte). A blob that inflates to other than its
// row's size fails the download instead of sending other bytes than the answer's Content-Length announced.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { after, before, describe, test } from "node:test";
import { downloadEventAttachment } from "../../src/core/attachments";
import { createOrganization } from "../../src/core/organizations";
import { createProject } from "../../src/core/projects";
import { writeBatch } from "../../src/digest/commit";
import { ATTACHMENT_LIMITS } from "../../src/config/limits";
import type { CoreContext } from "../../src/core/context";
import { digestedEvent } from "../helpers/digested-event";
import { bytesOf } from "../helpers/download";
import { type TestCore, testCore, uniq } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";

const MiB = 1024 * 1024;

/** Open file descriptors of this process. */
const openFiles = () => readdirSync("/proc/self/fd").length;

// Both blob stores: files in the data dir (SQLite) and chunks in the database (PostgreSQL).
for (const blobs of ["files", "chunks"] as const)
  describe(`issue 19 attachments: downloads are streamed, blobs in ${blobs}`, () => {
    let t: TestCore;
    let dataDir: string;
    let drop = async () => {};
    let owner: CoreContext;
    let org: string;
    let project: { slug: string; id: number };

    before(async () => {
      dataDir = mkdtempSync(path.join(tmpdir(), "faultline-download-"));
      if (blobs === "files") t = await testCore({ dialect: "sqlite", file: path.join(dataDir, "faultline.sqlite3") });
      else {
        const fresh = await freshPgDatabase(`download_${process.pid}`);
        drop = fresh.drop;
        t = await testCore({ dialect: "postgres", url: fresh.url });
      }
      assert.equal(Boolean(t.db.attachmentsDir), blobs === "files", "the blob store under test");
      owner = t.as(await t.accounts.createUser({ email: `${uniq("dl")}@example.com`, password: "password123", name: "Owner", isSuperuser: false }));
      org = (await createOrganization(owner, { name: uniq("Org") })).slug;
      const created = await createProject(owner, org, { name: uniq("Project"), platform: "python" });
      const o = (await t.store.getOrganizationBySlug(org))!;
      project = { slug: created.slug, id: (await t.store.getProjectBySlug(o.id, created.slug))!.id };
    });
    after(async () => {
      await t.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    /** Stores `stored` as an attachment whose row says it is `size` bytes; returns its event and attachment ids. */
    async function attach(stored: Buffer, size: number): Promise<{ eventId: string; id: string }> {
      const event = digestedEvent("Dump", project.id, uniq("h"));
      const blobKey = `dl${crypto.randomUUID().replace(/-/g, "")}`;
      await t.store.attachmentBlobs.write(blobKey, stored);
      const row = {
        projectId: project.id,
        eventId: event.eventId,
        blobKey,
        name: "core.dmp",
        contentType: "application/octet-stream",
        attachmentType: "event.minidump" as const,
        size,
        storedSize: stored.byteLength,
        codec: "gzip" as const,
        sha1: "0".repeat(40),
        receivedAt: event.receivedAt,
      };
      await writeBatch(t.store, { spoolId: uniq("spool"), position: 1, rawItems: [], outcomes: [], events: [event], attachments: [row] });
      return { eventId: event.eventId, id: String((await t.store.listAttachments(project.id, event.eventId))[0]!.id) };
    }

    test("64 MiB from a few KiB of gzip: the first piece comes with little memory, every piece at most a chunk, all bytes in the end", async () => {
      const size = 64 * MiB;
      const a = await attach(zlib.gzipSync(Buffer.alloc(size)), size);
      const held = process.memoryUsage().arrayBuffers;
      const { body } = await downloadEventAttachment(owner, org, project.slug, a.eventId, a.id);
      const pieces = body[Symbol.asyncIterator]();
      const first = await pieces.next();
      const grown = process.memoryUsage().arrayBuffers - held;
      assert.ok(grown < 8 * MiB, `the first piece held ${(grown / MiB).toFixed(1)} MiB of buffers (whole: 64 MiB)`);
      assert.ok(!first.done && first.value.byteLength <= ATTACHMENT_LIMITS.chunkBytes, "a first piece of at most a chunk");
      let total = first.value!.byteLength;
      let largest = total;
      for (let next = await pieces.next(); !next.done; next = await pieces.next()) {
        total += next.value.byteLength;
        largest = Math.max(largest, next.value.byteLength);
      }
      assert.equal(total, size);
      assert.ok(largest <= ATTACHMENT_LIMITS.chunkBytes, `pieces of at most ${ATTACHMENT_LIMITS.chunkBytes} bytes (largest ${largest})`);
    });

    test("a download left after its first piece ends quietly; a blob inflating to more or fewer bytes than its size fails", async () => {
      const sent = Buffer.from(Array.from({ length: 60_000 }, (_, i) => i * 7919).join(","));
      const whole = await attach(zlib.gzipSync(sent), sent.byteLength);
      const files = openFiles();
      const { body } = await downloadEventAttachment(owner, org, project.slug, whole.eventId, whole.id);
      // An answer whose body is never read (a HEAD) opened its file and left it to the garbage collector, which closes
      // it with a warning in the server's log.
      assert.equal(openFiles(), files, "nothing is open before the body is read");
      const pieces = body[Symbol.asyncIterator]();
      assert.equal((await pieces.next()).done, false);
      if (blobs === "files") assert.equal(openFiles(), files + 1, "reading, the blob's file is open");
      assert.deepEqual(await pieces.return!(undefined), { done: true, value: undefined }, "left early: no error");
      assert.equal(openFiles(), files, "left early, nothing stays open");
      assert.ok((await bytesOf((await downloadEventAttachment(owner, org, project.slug, whole.eventId, whole.id)).body)).equals(sent));

      for (const size of [sent.byteLength - 1, sent.byteLength + 1]) {
        const damaged = await attach(zlib.gzipSync(sent), size);
        await assert.rejects(
          bytesOf((await downloadEventAttachment(owner, org, project.slug, damaged.eventId, damaged.id)).body),
          /inflates to/,
          `a row of ${size} bytes`,
        );
      }
      const gzip = zlib.gzipSync(sent);
      const cut = await attach(gzip.subarray(0, gzip.byteLength >> 1), sent.byteLength);
      await assert.rejects(bytesOf((await downloadEventAttachment(owner, org, project.slug, cut.eventId, cut.id)).body), "a gzip cut short fails");
    });
  });
