// Release health items (sentry-protocol.md §3): `session` (one session's update) and `sessions` (pre-aggregated
// counts, as server SDKs send them) read into what the digest counts. Lenient where Relay is (numbers or ISO strings
// for `started`, a nil distinct id means none), strict where it is: a valid release is required (as for events), and a
// session started more than 5 days ago or ahead of its arrival is refused.
import { RELEASE_LIMITS } from "../config/limits";
import { hourOf } from "../core/hours";
import { BAD_NAME_CHARS, isValidRelease } from "../core/release-name";
import type { SpoolRow } from "../ingest/spool";
import type { OutcomeIncrement } from "../storage/ports";

type Json = Record<string, unknown>;

export type SessionUpdateStatus = "ok" | "exited" | "crashed" | "abnormal" | "errored";

export type SessionUpdate = {
  kind: "update";
  projectId: number;
  /** When the item arrived (ISO): the digest's clock for it, so that a batch read again is counted the same. */
  receivedAt: string;
  sessionId: string;
  distinctId: string | null;
  started: string;
  status: SessionUpdateStatus;
  errors: number;
  release: string;
  environment: string;
};

export type SessionAggregate = {
  kind: "aggregate";
  projectId: number;
  receivedAt: string;
  distinctId: string | null;
  started: string;
  release: string;
  environment: string;
  /** Sessions that ended without errors. */
  exited: number;
  /** Sessions with errors that did not crash (Relay also counts `unhandled` ones here). */
  errored: number;
  abnormal: number;
  crashed: number;
};

export type SessionItem = SessionUpdate | SessionAggregate;

const STATUSES = new Set<string>(["ok", "exited", "crashed", "abnormal", "errored"]);
const NIL_UUID = /^0{8}-?0{4}-?0{4}-?0{4}-?0{12}$/;

function text(v: unknown, max: number): string | null {
  if (typeof v === "number" && Number.isFinite(v)) v = String(v);
  return typeof v === "string" && v.length > 0 && v.length <= max ? v : null;
}

function distinctId(v: unknown): string | null {
  const id = text(v, RELEASE_LIMITS.sessionIdLength);
  return id && !NIL_UUID.test(id) ? id : null;
}

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.min(Math.floor(v), 1_000_000_000) : 0);

/** `started` as an ISO instant, if it is one (or epoch seconds) within the accepted window around `receivedAt`. */
function startedAt(v: unknown, receivedAt: number): string | null {
  const ms = typeof v === "number" ? v * 1000 : typeof v === "string" ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) return null;
  if (ms < receivedAt - RELEASE_LIMITS.sessionMaxAgeDays * 86_400_000 || ms > receivedAt + RELEASE_LIMITS.sessionMaxFutureSeconds * 1000) return null;
  return new Date(ms).toISOString();
}

function attributes(payload: Json): { release: string; environment: string } | null {
  const attrs = (typeof payload.attrs === "object" && payload.attrs !== null ? payload.attrs : {}) as Json;
  const release = text(typeof attrs.release === "string" ? attrs.release.trim() : null, RELEASE_LIMITS.versionLength);
  if (!release || !isValidRelease(release)) return null;
  const env = typeof attrs.environment === "string" ? attrs.environment.trim().slice(0, RELEASE_LIMITS.environmentLength) : "";
  // Relay drops an environment sentry-release-parser refuses and keeps the session.
  const environment = BAD_NAME_CHARS.test(env) ? "" : env;
  return { release, environment };
}

function sessionUpdate(row: SpoolRow, payload: Json): SessionUpdate | null {
  const attrs = attributes(payload);
  const sessionId = text(payload.sid, RELEASE_LIMITS.sessionIdLength);
  const started = startedAt(payload.started, row.receivedAt);
  if (!attrs || !sessionId || !started) return null;
  const status = typeof payload.status === "string" && STATUSES.has(payload.status) ? (payload.status as SessionUpdateStatus) : "ok";
  return {
    kind: "update",
    projectId: row.projectId,
    receivedAt: new Date(row.receivedAt).toISOString(),
    sessionId,
    distinctId: distinctId(payload.did),
    started,
    status,
    errors: count(payload.errors),
    ...attrs,
  };
}

function sessionAggregates(row: SpoolRow, payload: Json): SessionAggregate[] | null {
  const attrs = attributes(payload);
  if (!attrs || !Array.isArray(payload.aggregates)) return null;
  const out: SessionAggregate[] = [];
  const receivedAt = new Date(row.receivedAt).toISOString();
  for (const a of payload.aggregates as unknown[]) {
    if (typeof a !== "object" || a === null) continue;
    const bucket = a as Json;
    const started = startedAt(bucket.started, row.receivedAt);
    if (!started) continue;
    const counts = {
      exited: count(bucket.exited),
      errored: count(bucket.errored) + count(bucket.unhandled),
      abnormal: count(bucket.abnormal),
      crashed: count(bucket.crashed),
    };
    if (counts.exited + counts.errored + counts.abnormal + counts.crashed === 0) continue;
    out.push({ kind: "aggregate", projectId: row.projectId, receivedAt, distinctId: distinctId(bucket.did), started, ...attrs, ...counts });
  }
  return out.length > 0 ? out : null;
}

/** A session or sessions row's items, with its outcome: accepted per session, or invalid when nothing in it counts. */
export function readSessionRow(row: SpoolRow, payload: unknown): { items: SessionItem[]; outcome: OutcomeIncrement } {
  const p = (typeof payload === "object" && payload !== null && !Array.isArray(payload) ? payload : {}) as Json;
  const update = row.itemType === "session" ? sessionUpdate(row, p) : null;
  const items: SessionItem[] = row.itemType === "session" ? (update ? [update] : []) : (sessionAggregates(row, p) ?? []);
  const quantity = items.reduce((n, i) => n + (i.kind === "update" ? 1 : i.exited + i.errored + i.abnormal + i.crashed), 0);
  const outcome: OutcomeIncrement =
    items.length > 0
      ? { projectId: row.projectId, hour: hourOf(row.receivedAt), category: "session", outcome: "accepted", reason: "", quantity }
      : { projectId: row.projectId, hour: hourOf(row.receivedAt), category: "session", outcome: "invalid", reason: "invalid_session", quantity: 1 };
  return { items, outcome };
}
