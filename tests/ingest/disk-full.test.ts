// hostile input #7: a full disk, on a real one. The data dir is a small tmpfs mounted by the test (CI runs as root),
// so the spool's writes and SQLite's meet ENOSPC for real. While the disk is full the intake answers 503 (Retry-After);
// once space is freed it accepts again by itself within seconds, and every event it acknowledged reaches the database.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { fill, mountTmpfs, unmountTmpfs } from "../helpers/full-disk";
import { type TestIntake, startTestIntake } from "../helpers/intake";

const hex = () => crypto.randomUUID().replace(/-/g, "");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let mount: string;
before(() => {
  mount = mountTmpfs("faultline-full-", "24m");
});
after(() => unmountTmpfs(mount));

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
