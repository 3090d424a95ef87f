// A real file system with no room left, for the full-disk tests (hostile input #7): a small tmpfs mounted by the test
// (which needs root, CAP_SYS_ADMIN, as the test command has in CI), filled to its last byte.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmdirSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Mounts a tmpfs of `size` (e.g. "24m") on a new directory; returns it. */
export function mountTmpfs(prefix: string, size: string): string {
  const mount = mkdtempSync(path.join(tmpdir(), prefix));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", mount], { stdio: "pipe" });
  } catch (err) {
    throw new Error(
      `this test fills a real file system: it mounts a ${size} tmpfs, which needs root (CAP_SYS_ADMIN), as the test command runs in CI. mount said: ${(err as { stderr?: Buffer }).stderr?.toString().trim() ?? err}`,
    );
  }
  return mount;
}

export function unmountTmpfs(mount: string): void {
  execFileSync("umount", ["-l", mount]);
  rmdirSync(mount);
}

/** Fills the file system at `dir` with one file, in ever smaller writes, until not one more byte fits; returns it. */
export function fill(dir: string): string {
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
