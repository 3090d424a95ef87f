// The mail the main test server sent, as the tests' SMTP server (smtp-serve.ts) wrote it down.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "@playwright/test";
import { SMTP } from "./servers";

export type E2eMail = { to: string[]; from: string; subject: string; text: string; html: string; user: string | undefined };

export function mailsTo(address: string): E2eMail[] {
  let files: string[];
  try {
    files = readdirSync(SMTP.dir)
      .filter((f) => f.endsWith(".json"))
      .sort();
  } catch {
    return [];
  }
  return files.map((f) => JSON.parse(readFileSync(path.join(SMTP.dir, f), "utf8")) as E2eMail).filter((m) => m.to.includes(address));
}

/** Waits for the `count`-th message to `address` (1: the first) and returns it. */
export async function waitForMail(address: string, count = 1): Promise<E2eMail> {
  await expect.poll(() => mailsTo(address).length, { message: `mail number ${count} to ${address}`, timeout: 20_000 }).toBeGreaterThanOrEqual(count);
  return mailsTo(address)[count - 1]!;
}
