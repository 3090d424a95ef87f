// The intake's entry for envelopes that start inside the process (the dashboard's "send a test event", a tunnel for
// the browser SDK): envelope bytes and the client's address in, the event id or the refusal out, through the same
// checks and spool as HTTP (intake.ts `submitEnvelope`), without a loopback request.
//
// The server creates the intake; Next.js's bundle, which runs the dashboard, loads its own copy of every module. So
// the server registers the entry on globalThis under a symbol, and only plain data crosses between the two.
import { parseDsn } from "../protocol/auth";
import { parseEnvelopeHeaders } from "../protocol/envelope";

export type InProcessEnvelope = {
  /** The envelope as an SDK would post it (uncompressed). */
  body: Uint8Array;
  clientIp: string;
  userAgent?: string | null;
  /** The DSN key it is sent with, as the URL and X-Sentry-Auth would give them; else the envelope's `dsn` header. */
  auth?: { projectId: string; publicKey: string; client?: string | null };
};

export type InProcessAnswer = { ok: true; eventId: string | null } | { ok: false; status: number; reason: string; message: string };

export type SubmitEnvelope = (input: InProcessEnvelope) => Promise<InProcessAnswer>;

const KEY = Symbol.for("faultline.intake.submitEnvelope");
type Holder = { [KEY]?: SubmitEnvelope };

/** Called by the server once its intake is open (and with null when it closes). */
export function registerInProcessIntake(submit: SubmitEnvelope | null): void {
  const holder = globalThis as Holder;
  if (submit) holder[KEY] = submit;
  else delete holder[KEY];
}

/** The running server's entry; null when this process has no intake (`next dev`, a CLI command). */
export function inProcessIntake(): SubmitEnvelope | null {
  return (globalThis as Holder)[KEY] ?? null;
}

/** The project id named by the `dsn` of an envelope's header line, if any. */
export function envelopeProjectId(body: Uint8Array): string | null {
  try {
    const dsn = parseEnvelopeHeaders(body).headers.dsn;
    return typeof dsn === "string" ? (parseDsn(dsn)?.projectId ?? null) : null;
  } catch {
    return null;
  }
}
