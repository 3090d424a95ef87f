// The browser tests' SMTP server (started by playwright.config.ts): a real smtp-server (tests/helpers/smtp.ts) on
// SMTP.port that writes every message it receives as JSON to SMTP.dir, where specs read it (mail-helpers.ts).
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startSmtp } from "../helpers/smtp";
import { SMTP } from "./servers.mjs";

rmSync(SMTP.dir, { recursive: true, force: true });
mkdirSync(SMTP.dir, { recursive: true });
let n = 0;
const smtp = await startSmtp({
  port: SMTP.port,
  user: SMTP.user,
  password: SMTP.password,
  onMessage: (mail) => {
    const file = path.join(SMTP.dir, `${String(++n).padStart(6, "0")}.json`);
    const body = JSON.stringify({ to: mail.envelope.to, from: mail.from, subject: mail.subject, text: mail.text, html: mail.html, user: mail.user });
    // Written whole, then renamed: a reader never sees half a message.
    writeFileSync(`${file}.tmp`, body);
    renameSync(`${file}.tmp`, file);
  },
});
console.log(`smtp-serve: listening on 127.0.0.1:${smtp.port}`);
for (const sig of ["SIGTERM", "SIGINT"] as const) process.on(sig, () => void smtp.close().then(() => process.exit(0)));
