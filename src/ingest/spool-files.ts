// The spool's files in its directory: segment files named by the log offset of their first byte, and the identity
// the digest's position is saved under. Shared by the writer and reader (spool.ts) and the backlog count.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const SEGMENT_FILE = /^(\d{16})\.log$/;
export const segmentFile = (dir: string, base: number) => path.join(dir, `${String(base).padStart(16, "0")}.log`);
export const identityFile = (dir: string) => path.join(dir, "identity");

/** The bases (log offsets of their first bytes) of the segments in `dir`, oldest first. */
export function listSegments(dir: string): number[] {
  const bases: number[] = [];
  for (const name of fs.readdirSync(dir)) {
    const m = SEGMENT_FILE.exec(name);
    if (m) bases.push(Number(m[1]));
  }
  return bases.sort((a, b) => a - b);
}

/** Makes a new file's directory entry durable (a synced file is not enough for a power cut). */
export function syncDir(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * "full" syncs every group commit to disk: acknowledged items survive a power cut, not only a killed process.
 * "normal" survives a killed process (kill -9: the kernel has the write) but may lose the last commits in a power cut.
 */
export type SpoolDurability = "full" | "normal";

/** The spool's identity, created with it: the digest's position is saved per spool. */
export function identity(dir: string, durability: SpoolDurability): string {
  try {
    return fs.readFileSync(identityFile(dir), "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const id = randomUUID();
  const fd = fs.openSync(identityFile(dir), "wx");
  try {
    fs.writeSync(fd, id);
    if (durability === "full") fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  if (durability === "full") syncDir(dir);
  return id;
}
