// hostile input #7: a full disk, on a real one. The data dir is a small tmpfs mounted by the test (CI runs as root),
// so the spool's writes and SQLite's meet ENOSPC for real. While the disk is full the intake answers 503 (Retry-After);
// once space is freed it accepts again by itself within seconds, and every event it acknowledged reaches the database.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, openSync, rmSync, rmdirSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { type TestIntake, startTestIntake } from "../helpers/intake";

const hex = () => crypto.randomUUID().replace(/-/g, "");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Fills the file system at `dir` with one file, in ever smaller writes, until not one more byte fits; returns it. */
function fill(dir: string): string {
  const file = path.join(dir, "filler");
  const fd = openSync(file, "w");
  try {
    for (let size = 64 * 1024; size >= 1; size = Math.floor(size / 4)) {
      const block = Buffer.alloc(size, 0x78);
      try {
        for (;;) writeSync(fd, block);
      } catch (err) {
        assert.equal((err as NodeJS.ErrnoException).code, "ENOSPC");
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

let mount: string;
before(() => {
  mount = mkdtempSync(path.join(tmpdir(), "faultline-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", mount], { stdio: "pipe" });
  } catch (err) {
    throw new Error(
      `this test fills a real file system: it mounts a 24 MiB tmpfs, which needs root (CAP_SYS_ADMIN), as the test command runs in CI. mount said: ${(err as { stderr?: Buffer }).stderr?.toString().trim() ?? err}`,
    );
  }
});
after(() => {
  execFileSync("umount", ["-l", mount]);
  rmdirSync(mount);
});

async function send(t: TestIntake, id: string): Promise<number> {
  const p = t.projects[0];
  const body = `${JSON.stringify({ event_id: id })}\n{"type":"event"}\n${JSON.stringify({ message: `disk ${id}`, level: "error", extra: { padding: "p".repeat(2000) } })}\n`;
  const r = await fetch(t.url("envelope", p, `?sentry_key=${p.key.publicKey}&sentry_version=7`), { method: "POST", body });
  await r.arrayBuffer();
  if (r.status === 503) assert.ok(r.headers.get("retry-after"), "a 503 tells the SDK when to retry");
  return r.status;
}

describe("hostile input #7: a full disk", () => {
  for (const [name, minFreeDiskBytes] of [
    ["the spool's own writes fail (ENOSPC)", 0],
    ["the free-space floor refuses before writing", 2 * 1024 * 1024],
  ] as const) {
    test(`${name}: 503 while full, accepted again within seconds once space returns, nothing acknowledged lost`, { timeout: 60_000 }, async () => {
      const dataDir = mkdtempSync(path.join(mount, "data-"));
      const t = await startTestIntake({ dataDir, pressureLimits: { maxBacklogBytes: 2 ** 40, maxPendingBytes: 64 * 1024 * 1024, minFreeDiskBytes } });
      try {
        const acknowledged: string[] = [];
        const ok = hex();
        assert.equal(await send(t, ok), 200);
        acknowledged.push(ok);
        await t.waitForEvent(t.projects[0], ok);

        const filler = fill(mount);
        await sleep(1200); // the free-space measurement runs once a second
        const whileFull: number[] = [];
        for (let i = 0; i < 20; i++) {
          const id = hex();
          const status = await send(t, id);
          whileFull.push(status);
          if (status === 200) acknowledged.push(id);
        }
        // The spool's last page may still hold a few small records; once a write fails, everything is refused.
        assert.ok(
          whileFull.every((s) => s === 200 || s === 503),
          `only 200 or 503 while full: ${whileFull}`,
        );
        const firstRefused = whileFull.indexOf(503);
        assert.ok(firstRefused >= 0 && firstRefused <= 10, `refused while full: ${whileFull}`);
        assert.ok(
          whileFull.slice(firstRefused).every((s) => s === 503),
          `refused from the first failed write on: ${whileFull}`,
        );

        rmSync(filler);
        const freedAt = Date.now();
        let recovered: number | null = null;
        while (Date.now() - freedAt < 10_000) {
          const id = hex();
          if ((await send(t, id)) === 200) {
            acknowledged.push(id);
            recovered = Date.now() - freedAt;
            break;
          }
          await sleep(200);
        }
        assert.ok(recovered !== null, "accepting again within 10 s of space returning");
        for (let i = 0; i < 5; i++) {
          const id = hex();
          assert.equal(await send(t, id), 200);
          acknowledged.push(id);
        }
        // The digest, whose SQLite file is on the same disk, catches up too: every acknowledged event is stored.
        for (const id of acknowledged) await t.waitForEvent(t.projects[0], id, 30_000);
      } finally {
        await t.close();
      }
    });
  }
});
