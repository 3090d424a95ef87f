// E-mail addresses and header text as outgoing mail accepts them: pure checks, shared by the configuration
// (FAULTLINE_MAIL_FROM) and the mailer (every recipient, subject and header), so that nothing a user typed can add a
// header line or a recipient.
import { NAME_LIMITS } from "../config/limits";

/** Any control character (C0, DEL, C1) or a Unicode line/paragraph separator: never inside a header. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * A plain address (local@domain): no display name, no spaces, no quotes, brackets, commas or semicolons (which would
 * make a second recipient), no control characters; a domain with a dot-separated label structure.
 */
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isMailAddress(value: unknown): value is string {
  return typeof value === "string" && value.length <= NAME_LIMITS.emailMaxLength && ADDRESS.test(value);
}

/** True when the text may stand in a header (no line breaks, NUL or other control characters). */
export function isHeaderSafe(value: string): boolean {
  return !CONTROL.test(value);
}

/** Text made fit for one header line: control characters become spaces, runs of whitespace one space. */
export function headerText(value: string): string {
  return value.replace(new RegExp(CONTROL.source, "g"), " ").replace(/\s+/g, " ").trim();
}

export type MailFrom = { name: string | undefined; address: string };

/**
 * FAULTLINE_MAIL_FROM: `alerts@example.com` or `Faultline <alerts@example.com>`; null when it is neither (or carries
 * a control character). The display name is encoded by the mailer, so any printable text is fine in it.
 */
export function parseMailFrom(raw: string): MailFrom | null {
  if (!isHeaderSafe(raw)) return null;
  const value = raw.trim();
  if (isMailAddress(value)) return { name: undefined, address: value };
  const m = /^(.*?)\s*<([^<>]+)>$/.exec(value);
  if (!m || !isMailAddress(m[2])) return null;
  const name = m[1]!
    .trim()
    .replace(/^"(.*)"$/, "$1")
    .trim();
  if (/[<>"]/.test(name)) return null;
  return { name: name === "" ? undefined : name, address: m[2]! };
}
