// The browser tunnel of Faultline's own pages (`/monitoring`): the SDK posts its envelopes to the page's origin,
// which no ad blocker or Content-Security-Policy stands in the way of, and the envelope header names the DSN. Only a
// DSN of this install (its public URL and base path) is taken, and it goes to the intake in-process (in-process.ts),
// through the same key, quota and size checks as HTTP: nothing is ever forwarded, so the tunnel is no open proxy.
// A malformed envelope is a 400, another server's DSN a 403; an unknown or disabled key is the intake's 403.
import { parseDsn } from "../protocol/auth";
import { parseEnvelopeHeaders } from "../protocol/envelope";
import { ProtocolError } from "../protocol/errors";
import type { InProcessAnswer, SubmitEnvelope } from "./in-process";

export type TunnelAnswer = { status: number; body: { id?: string | null; detail?: string } };

/** `scheme://host[/base]` of this install, as its DSNs name it (core/keys.ts buildDsn). */
export function installDsnPrefix(publicUrl: string, basePath: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol}//${url.host}${basePath.replace(/\/+$/, "")}`;
}

/** The `dsn` of an envelope's header line; a string explaining what is wrong when it has none. */
export function envelopeDsn(body: Uint8Array): { dsn: string } | { error: string } {
  let headers: Record<string, unknown>;
  try {
    headers = parseEnvelopeHeaders(body).headers;
  } catch (err) {
    if (err instanceof ProtocolError) return { error: err.message };
    throw err;
  }
  const dsn = headers.dsn;
  if (typeof dsn !== "string" || dsn === "") return { error: "the envelope header names no DSN" };
  return { dsn };
}

/** Takes one tunnelled envelope: checks its DSN is this install's, then hands it to the intake. */
export async function tunnelEnvelope(
  input: { body: Uint8Array; clientIp: string; userAgent: string | null },
  install: { publicUrl: string; basePath: string },
  submit: SubmitEnvelope | null,
): Promise<TunnelAnswer> {
  if (input.body.byteLength === 0) return { status: 400, body: { detail: "empty envelope" } };
  const found = envelopeDsn(input.body);
  if ("error" in found) return { status: 400, body: { detail: found.error } };
  const dsn = parseDsn(found.dsn);
  if (!dsn) return { status: 400, body: { detail: "the envelope's DSN is malformed" } };
  const url = new URL(found.dsn);
  const origin = `${url.protocol}//${url.host}${url.pathname.replace(/\/[^/]*\/?$/, "")}`;
  if (origin !== installDsnPrefix(install.publicUrl, install.basePath))
    return { status: 403, body: { detail: "DSN not allowed: it is not a DSN of this Faultline" } };
  if (!submit) return { status: 503, body: { detail: "this process takes no events" } };
  const answer: InProcessAnswer = await submit({
    body: input.body,
    clientIp: input.clientIp,
    userAgent: input.userAgent,
    auth: { projectId: dsn.projectId, publicKey: dsn.publicKey },
  });
  return answer.ok ? { status: 200, body: { id: answer.eventId } } : { status: answer.status, body: { detail: answer.message } };
}
