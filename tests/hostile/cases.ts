// The shape of the bad-input corpus (corpus.ts): requests a hostile or broken client sends, built deterministically
// from a seed and from realistic SDK payloads (bench/lib/payloads.mjs), for one running server.
import { EID, SID, browserError, clientReport, pythonError, session, streamedSpans, transaction } from "../../bench/lib/payloads.mjs";
import { prng } from "../../bench/lib/mix.mjs";

/** What the cases are made for: one server with an organization, a project, its DSN and an API token. */
export type Target = { origin: string; dsn: string; publicKey: string; projectId: string; token: string; org: string; project: string };

export type HostileCase = {
  /** Unique and descriptive: the answer counts are reported per group (the part before the first ": "). */
  name: string;
  method?: string;
  /** Path and query, from the origin (no base path). */
  path: string;
  headers?: Record<string, string>;
  /** Bytes, or a stream of chunks (sent chunked). */
  body?: Uint8Array | (() => AsyncIterable<Uint8Array>);
};

export type Rng = () => number;
export const seeded = (seed: number): Rng => prng(seed);

/** A fixed time (2 minutes before the corpus is built), so payloads are within the intake's and digest's windows. */
export const now = () => Math.floor(Date.now() / 1000) - 120;

export const hex = (rng: Rng, n: number) => {
  let s = "";
  while (s.length < n)
    s += Math.floor(rng() * 0x100000000)
      .toString(16)
      .padStart(8, "0");
  return s.slice(0, n);
};

type Envelope = [Record<string, unknown>, [Record<string, unknown>, unknown][]];

/** The envelope as @sentry/browser serializes it (no item lengths) or as sentry-python does (every item with `length`). */
export function serialize([headers, items]: Envelope, withLengths = false): Buffer {
  const lines = [JSON.stringify(headers)];
  for (const [h, p] of items) {
    const body = typeof p === "string" ? p : JSON.stringify(p);
    lines.push(JSON.stringify(withLengths ? { ...h, length: Buffer.byteLength(body) } : h), body);
  }
  return Buffer.from(`${lines.join("\n")}\n`);
}

/** Replaces the payload generators' id placeholders with fresh ids from `rng`. */
function fill<T>(value: T, rng: Rng): T {
  return JSON.parse(JSON.stringify(value).replaceAll(EID, hex(rng, 32)).replaceAll(SID, hex(rng, 32))) as T;
}

/** Valid envelopes of every kind SDKs send, the bases that cases mutate. */
export function baseEnvelopes(rng: Rng, key: string): Record<string, Envelope> {
  const t = now();
  const attachment: Envelope = [
    { event_id: hex(rng, 32) },
    [[{ type: "attachment", filename: "log.txt", content_type: "text/plain" }, "line one\nline two\n".repeat(20)]],
  ];
  return {
    "browser error": fill(browserError(rng, key, t) as Envelope, rng),
    "python error": fill([{ event_id: EID }, [[{ type: "event" }, pythonError(rng, key, t)]]] as Envelope, rng),
    "browser transaction": fill(transaction(rng, key, t, false, 8) as Envelope, rng),
    "python transaction": fill(transaction(rng, key, t, true, 8) as Envelope, rng),
    "span container": fill(streamedSpans(rng, key, t, 6) as Envelope, rng),
    "session update": fill(session(rng, key, t, false) as Envelope, rng),
    "session aggregates": fill(session(rng, key, t, true) as Envelope, rng),
    "client report": fill(clientReport(rng, key, t) as Envelope, rng),
    attachment,
  };
}

/** The browser error event and the Python one, as objects, for field-by-field mutation. */
export function baseEvents(rng: Rng, key: string): { browser: Record<string, unknown>; python: Record<string, unknown> } {
  const t = now();
  const [, items] = fill(browserError(rng, key, t) as Envelope, rng);
  return { browser: items[0]![1] as Record<string, unknown>, python: fill(pythonError(rng, key, t), rng) as Record<string, unknown> };
}

export const envelopePath = (t: Target, query = "") => `/api/${t.projectId}/envelope/?sentry_key=${t.publicKey}&sentry_version=7${query}`;
export const storePath = (t: Target) => `/api/${t.projectId}/store/?sentry_key=${t.publicKey}&sentry_version=7`;
