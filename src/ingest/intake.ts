// The intake: answers SDKs on /api/{project_id}/envelope|store|security/. Cheap checks only (auth, key, limits while
// streaming, quotas, backpressure), then the spool, then the answer: 200 means the items are on disk.
import type http from "node:http";
import { ATTACHMENT_LIMITS, INGEST_LIMITS, SPOOL_LIMITS } from "../config/limits";
import { type SentryAuth, extractAuth, isPublicKey, parseDsn } from "../protocol/auth";
import { envelopeProjectId } from "./in-process";
import { BodyBudgetError, readBody } from "../protocol/content-encoding";
import { parseEnvelope, parseEnvelopeHeaders } from "../protocol/envelope";
import { type ProtocolErrorReason, ProtocolError } from "../protocol/errors";
import { parseJsonObject } from "../protocol/json";
import { formatRateLimits } from "../protocol/rate-limits";
import { securityReportEvents } from "../protocol/security-report";
import { decodeStoreBody } from "../protocol/store-body";
import type { IntakeKey, OutcomeIncrement } from "../storage/ports";
import { type Accepted, acceptEnvelope, acceptEvent, outcome } from "./accept";
import type { Backpressure } from "./backpressure";
import type { KeyCache } from "./key-cache";
import type { RateLimiter } from "./rate-limiter";
import { ReadBudget } from "./read-budget";
import { closeAfterAnswer } from "./linger";
import { IntakeRefusal, outcomeOf } from "./refusals";
import { CORS_HEADERS, type IntakeEndpoint, type IntakeRoute, PREFLIGHT_HEADERS } from "./routes";
import type { InProcessAnswer, InProcessEnvelope } from "./in-process";
import type { SpoolEntry, SpoolWriter } from "./spool";
import { metrics } from "../observability/metrics";
import { categoryOf } from "../protocol/categories";
import { discardStaged } from "./attachment-staging";
import { type UploadResult, acceptUpload, rateLimitedUpload } from "./uploads";

/** uploads: where multipart uploads stage their files, and whether to sync them (FAULTLINE_SPOOL_SYNC=full). */
export type IntakeDeps = {
  spool: SpoolWriter;
  keys: KeyCache;
  limiter: RateLimiter;
  pressure: Backpressure;
  log: (line: string) => void;
  uploads?: { stagingDir: string; sync: boolean };
};
export type IntakeRequest = { req: http.IncomingMessage; res: http.ServerResponse; route: IntakeRoute; clientIp: string };
/** A request whose body has been read, from HTTP or from inside the process. */
type ReadRequest = {
  route: IntakeRoute;
  body: Buffer;
  auth: SentryAuth | null;
  headers: http.IncomingHttpHeaders;
  query: URLSearchParams;
  clientIp: string;
  userAgent: string | null;
};
type Answer = { eventId: string | null; headers: Record<string, string> | undefined } | { refused: IntakeRefusal };

const BODY_LIMITS: Record<IntakeEndpoint, { maxCompressedBytes: number; maxDecompressedBytes: number }> = {
  envelope: { maxCompressedBytes: INGEST_LIMITS.maxCompressedBodyBytes, maxDecompressedBytes: INGEST_LIMITS.maxDecompressedBodyBytes },
  // A store body may be base64 of the event, a third larger than the event itself.
  store: { maxCompressedBytes: INGEST_LIMITS.maxEventBytes * 2, maxDecompressedBytes: INGEST_LIMITS.maxEventBytes * 2 },
  security: { maxCompressedBytes: INGEST_LIMITS.maxSecurityReportBytes, maxDecompressedBytes: INGEST_LIMITS.maxSecurityReportBytes },
  // Multipart uploads stream to staging files (uploads.ts); these bound the declared length only.
  attachments: { maxCompressedBytes: ATTACHMENT_LIMITS.maxRequestBytes, maxDecompressedBytes: ATTACHMENT_LIMITS.maxRequestBytes },
  minidump: { maxCompressedBytes: ATTACHMENT_LIMITS.maxRequestBytes, maxDecompressedBytes: ATTACHMENT_LIMITS.maxRequestBytes },
};

/** The category a refused request is counted in when its items could not be read. */
const ENDPOINT_CATEGORY: Record<IntakeEndpoint, string> = {
  envelope: "default",
  store: "error",
  security: "security",
  attachments: "attachment",
  minidump: "error",
};

function send(res: http.ServerResponse, status: number, body: string, headers?: Record<string, string>): void {
  const all: Record<string, string> = { ...CORS_HEADERS, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) };
  if (headers) Object.assign(all, headers);
  res.writeHead(status, all);
  res.end(body);
}

function refuse(res: http.ServerResponse, refusal: IntakeRefusal, bodyUnread: boolean): void {
  // A body left unread (a limit hit mid-stream, or a refusal before reading) is not worth reading to its end: the
  // answer says the connection closes, and it closes once the client has had time to read the answer.
  if (bodyUnread) closeAfterAnswer(res);
  const extra: Record<string, string> = bodyUnread ? { connection: "close" } : {};
  send(res, refusal.status, JSON.stringify({ detail: refusal.message }), { "x-sentry-error": refusal.message, ...refusal.headers, ...extra });
}

const header = (req: http.IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The query string's parameters, without the cost of parsing a whole URL. */
function queryOf(url: string): URLSearchParams {
  const start = url.indexOf("?");
  if (start < 0) return new URLSearchParams();
  const hash = url.indexOf("#", start);
  return new URLSearchParams(url.slice(start + 1, hash < 0 ? undefined : hash));
}

/** Outcome counts go to the spool (the Stats tab) and to the process's metrics. */
function countOutcomes(spool: SpoolWriter, counts: OutcomeIncrement[]): void {
  spool.count(counts);
  const m = metrics();
  for (const o of counts) m.outcome(o.category, o.outcome, o.reason, o.quantity);
}

/** Items spooled: counted as accepted in the metrics (the digest counts them for the Stats tab as it stores them). */
function countAccepted(entries: SpoolEntry[]): void {
  const m = metrics();
  for (const e of entries) m.outcome(categoryOf(e.itemType), "accepted", "", 1);
}

export function createIntake({ spool, keys, limiter, pressure, log, uploads }: IntakeDeps) {
  const reading = new ReadBudget();

  /** The request's key; from the cache without a promise when it is there (nearly every request). */
  function resolveKey(auth: SentryAuth, route: IntakeRoute): IntakeKey | Promise<IntakeKey> {
    const cached = keys.peek(auth.publicKey);
    if (cached) return checkKey(cached.key, route);
    return keys.get(auth.publicKey).then((key) => checkKey(key, route));
  }

  function checkKey(key: IntakeKey | null, route: IntakeRoute): IntakeKey {
    if (!key) throw new IntakeRefusal("unknown_key", "the DSN's public key is unknown");
    if (!key.isActive) throw new IntakeRefusal("disabled_key", "the DSN's key is disabled");
    if (String(key.projectId) !== route.projectId) throw new IntakeRefusal("project_mismatch", "the DSN's key belongs to another project");
    return key;
  }

  /** Credentials from headers and query; null when an envelope may still carry them in its `dsn` header. */
  function requestAuth(req: http.IncomingMessage, query: URLSearchParams, endpoint: IntakeEndpoint): SentryAuth | null {
    try {
      return extractAuth({ headers: req.headers, query });
    } catch (err) {
      if (endpoint === "envelope" && err instanceof ProtocolError && err.reason === "missing_auth") return null;
      throw err;
    }
  }

  function accept(route: IntakeRoute, body: Buffer, query: URLSearchParams, key: IntakeKey, meta: string, now: number): Accepted {
    const ctx = { key, now, meta, limiter };
    if (route.endpoint === "store") {
      const decoded = decodeStoreBody(body, INGEST_LIMITS.maxEventBytes);
      if (decoded.byteLength > INGEST_LIMITS.maxEventBytes)
        throw new ProtocolError("payload_too_large", `the event is larger than ${INGEST_LIMITS.maxEventBytes} bytes`);
      return acceptEvent("event", decoded, parseJsonObject(decoded), ctx);
    }
    const events = securityReportEvents(body, { release: query.get("sentry_release"), environment: query.get("sentry_environment") });
    const all: Accepted = { eventId: null, entries: [], outcomes: [], limits: [] };
    for (const event of events) {
      const one = acceptEvent("security", Buffer.from(JSON.stringify(event)), event, ctx);
      all.entries.push(...one.entries);
      all.outcomes.push(...one.outcomes);
      all.limits.push(...one.limits);
    }
    return all;
  }

  /** What a request comes to once its body is read: the answer, or a thrown refusal. `held.key` is the key found. */
  async function ingest(r: ReadRequest, held: { key: IntakeKey | null }): Promise<Answer> {
    const { route, body, headers, query } = r;
    let auth = r.auth;
    if (body.length === 0) throw new ProtocolError("empty_body", "empty request body");
    const now = Date.now();
    const requestMeta = { client_ip: r.clientIp, user_agent: r.userAgent, client: auth?.client ?? null };

    let accepted: Accepted;
    if (route.endpoint === "envelope") {
      // The header line alone first: without credentials in the request, its DSN names the key, and a request with no
      // valid key is refused before a single item is read.
      const head = parseEnvelopeHeaders(body);
      const dsn = typeof head.headers.dsn === "string" ? head.headers.dsn : null;
      if (!auth) {
        auth = extractAuth({ headers, query, envelopeDsn: dsn });
        const found = resolveKey(auth, route);
        held.key = found instanceof Promise ? await found : found;
      } else if (dsn) {
        // "When both the header dsn and request auth are present they must match on project id and public key."
        const named = parseDsn(dsn);
        if (named && (named.publicKey !== auth.publicKey || named.projectId !== route.projectId)) {
          throw new IntakeRefusal("dsn_mismatch", "project id/public key header mismatch between envelope and request");
        }
      }
      const envelope = parseEnvelope(body, head);
      const { dsn: _dsn, ...envelopeMeta } = envelope.headers;
      accepted = acceptEnvelope(envelope, { key: held.key!, now, limiter, meta: JSON.stringify({ ...envelopeMeta, ...requestMeta }) });
    } else {
      accepted = accept(route, body, query, held.key!, JSON.stringify(requestMeta), now);
    }

    if (accepted.outcomes.length > 0) countOutcomes(spool, accepted.outcomes);
    const rateLimits = accepted.limits.length > 0 ? { "x-sentry-rate-limits": formatRateLimits(accepted.limits) } : undefined;
    if (accepted.entries.length === 0 && rateLimits) {
      const retryAfter = Math.max(...accepted.limits.map((l) => l.retryAfterSeconds));
      // Refused whole, its items already counted as rate limited above.
      return { refused: new IntakeRefusal("rate_limited", "event rejected due to rate limit", { ...rateLimits, "retry-after": String(retryAfter) }) };
    }
    if (accepted.entries.length > 0) {
      try {
        await spool.append(accepted.entries);
      } catch (err) {
        log(`faultline: intake could not write to the spool: ${(err as Error).message}`);
        throw new IntakeRefusal("spool_failure", "the server could not store the event; retry later", { "retry-after": "60" });
      }
      countAccepted(accepted.entries);
    }
    return { eventId: accepted.eventId, headers: rateLimits };
  }

  /** The refusal an error comes to, counted as an outcome of the key's project when the key is known. */
  function refusalOf(err: unknown, key: IntakeKey | null, endpoint: IntakeEndpoint): IntakeRefusal {
    let refusal: IntakeRefusal;
    if (err instanceof IntakeRefusal) refusal = err;
    else if (err instanceof ProtocolError) refusal = new IntakeRefusal(err.reason as ProtocolErrorReason, err.message);
    else if (err instanceof BodyBudgetError)
      refusal = new IntakeRefusal("backpressure", err.message, { "retry-after": String(SPOOL_LIMITS.backpressureRetryAfterSeconds) });
    else {
      log(`faultline: intake error: ${(err as Error).stack ?? String(err)}`);
      refusal = new IntakeRefusal("spool_failure", "the server could not take the request; retry later", { "retry-after": "60" });
    }
    if (key) {
      const counts: OutcomeIncrement[] =
        refusal.outcomes.length > 0
          ? refusal.outcomes
          : [outcome({ key, now: Date.now() }, ENDPOINT_CATEGORY[endpoint], outcomeOf(refusal.reason), refusal.reason)];
      countOutcomes(spool, counts);
    }
    return refusal;
  }

  async function handleIntake({ req, res, route, clientIp }: IntakeRequest): Promise<void> {
    if (req.method === "OPTIONS") {
      res.writeHead(200, { ...PREFLIGHT_HEADERS, "content-length": "0" }).end();
      return;
    }
    const held: { key: IntakeKey | null } = { key: null };
    let bodyRead = false;
    const lease = reading.lease();
    try {
      if (req.method !== "POST") throw new IntakeRefusal("method_not_allowed", "use POST", { allow: "POST, OPTIONS" });
      const query = queryOf(req.url ?? "/");
      const auth = requestAuth(req, query, route.endpoint);
      if (auth) {
        const found = resolveKey(auth, route);
        held.key = found instanceof Promise ? await found : found;
      }
      const busy = pressure.reason();
      if (busy) throw new IntakeRefusal("backpressure", busy, { "retry-after": String(SPOOL_LIMITS.backpressureRetryAfterSeconds) });
      const limits = BODY_LIMITS[route.endpoint];
      const declared = Number(header(req, "content-length") ?? 0);
      if (declared > limits.maxCompressedBytes && declared > limits.maxDecompressedBytes)
        throw new ProtocolError("payload_too_large", `the request body is larger than ${limits.maxCompressedBytes} bytes`);
      if (route.endpoint === "attachments" || route.endpoint === "minidump") {
        if (!uploads || !held.key) throw new ProtocolError("missing_auth", "missing authorization information");
        const meta = JSON.stringify({ client_ip: clientIp, user_agent: header(req, "user-agent") ?? null, client: auth?.client ?? null });
        const upload = await acceptUpload(req, route.endpoint, route.eventId, {
          key: held.key,
          now: Date.now(),
          meta,
          limiter,
          ...uploads,
          hold: lease.options.hold,
          gate: lease.options.gate,
        });
        bodyRead = true;
        return await answerUpload(res, route.endpoint, upload);
      }
      const body = await readBody(req, header(req, "content-encoding"), limits, lease.options);
      bodyRead = true;
      const answer = await ingest({ route, body, auth, headers: req.headers, query, clientIp, userAgent: header(req, "user-agent") ?? null }, held);
      if ("refused" in answer) {
        metrics().intakeAnswer(route.endpoint, answer.refused.status, answer.refused.reason);
        return refuse(res, answer.refused, false);
      }
      metrics().intakeAnswer(route.endpoint, 200, "accepted");
      if (route.endpoint === "security") return send(res, 200, "", answer.headers);
      send(res, 200, answer.eventId ? `{"id":"${answer.eventId}"}` : "{}", answer.headers);
    } catch (err) {
      if (!bodyRead && !(err instanceof IntakeRefusal) && !(err instanceof ProtocolError) && (err as { code?: string }).code === "ECONNRESET") {
        metrics().intakeAnswer(route.endpoint, 0, "connection_reset");
        return void res.destroy();
      }
      const refusal = refusalOf(err, held.key, route.endpoint);
      metrics().intakeAnswer(route.endpoint, refusal.status, refusal.reason);
      refuse(res, refusal, !bodyRead);
    } finally {
      lease.release();
    }
  }

  /** Spools what an upload kept and answers: 201 (attachments), or 200 with the event id as text (minidump). */
  async function answerUpload(res: http.ServerResponse, endpoint: "attachments" | "minidump", upload: UploadResult): Promise<void> {
    if (upload.outcomes.length > 0) countOutcomes(spool, upload.outcomes);
    const rateLimits = upload.limits.length > 0 ? { "x-sentry-rate-limits": formatRateLimits(upload.limits) } : undefined;
    if (endpoint === "attachments" && upload.entries.length === 0 && rateLimits) {
      const refused = rateLimitedUpload(upload.limits, rateLimits["x-sentry-rate-limits"]);
      metrics().intakeAnswer(endpoint, refused.status, refused.reason);
      return refuse(res, refused, false);
    }
    if (upload.entries.length > 0) {
      try {
        await spool.append(upload.entries);
      } catch (err) {
        await discardStaged(upload.staged);
        log(`faultline: intake could not write to the spool: ${(err as Error).message}`);
        throw new IntakeRefusal("spool_failure", "the server could not store the upload; retry later", { "retry-after": "60" });
      }
      countAccepted(upload.entries);
    }
    metrics().intakeAnswer(endpoint, endpoint === "attachments" ? 201 : 200, "accepted");
    if (endpoint === "attachments") {
      res.writeHead(201, { ...CORS_HEADERS, "content-length": "0", ...rateLimits });
      return void res.end();
    }
    const id = upload.eventId.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
    send(res, 200, id, { "content-type": "text/plain; charset=utf-8" });
  }

  /**
   * An envelope handed over inside the process (the dashboard's test event, a tunnel), taken exactly as if it had
   * been posted to /api/{project}/envelope/: the same key, backpressure, size, item and quota checks, the same spool.
   * Credentials come from `auth` or else from the envelope's `dsn` header.
   */
  async function submitEnvelope(input: InProcessEnvelope): Promise<InProcessAnswer> {
    const held: { key: IntakeKey | null } = { key: null };
    const auth: SentryAuth | null = input.auth ? { publicKey: input.auth.publicKey, version: 7, client: input.auth.client ?? null } : null;
    const projectId = input.auth?.projectId ?? envelopeProjectId(input.body);
    const route: IntakeRoute = { projectId: projectId ?? "0", endpoint: "envelope" };
    try {
      if (!auth && !projectId) throw new ProtocolError("missing_auth", "the envelope names no DSN");
      if (auth && !isPublicKey(auth.publicKey)) throw new ProtocolError("bad_auth", "the public key is not 32 hexadecimal characters");
      if (auth) held.key = await resolveKey(auth, route);
      const busy = pressure.reason();
      if (busy) throw new IntakeRefusal("backpressure", busy, { "retry-after": String(SPOOL_LIMITS.backpressureRetryAfterSeconds) });
      if (input.body.byteLength > BODY_LIMITS.envelope.maxDecompressedBytes)
        throw new ProtocolError("payload_too_large", `the request body is larger than ${BODY_LIMITS.envelope.maxDecompressedBytes} bytes`);
      const answer = await ingest(
        { route, body: Buffer.from(input.body), auth, headers: {}, query: new URLSearchParams(), clientIp: input.clientIp, userAgent: input.userAgent ?? null },
        held,
      );
      if ("refused" in answer) {
        metrics().intakeAnswer("in_process", answer.refused.status, answer.refused.reason);
        return { ok: false, status: answer.refused.status, reason: answer.refused.reason, message: answer.refused.message };
      }
      metrics().intakeAnswer("in_process", 200, "accepted");
      return { ok: true, eventId: answer.eventId };
    } catch (err) {
      const refusal = refusalOf(err, held.key, "envelope");
      metrics().intakeAnswer("in_process", refusal.status, refusal.reason);
      return { ok: false, status: refusal.status, reason: refusal.reason, message: refusal.message };
    }
  }

  return { handleIntake, submitEnvelope };
}
