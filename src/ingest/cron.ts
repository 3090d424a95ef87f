// The HTTP check-in endpoint (Relay's endpoints/monitor.rs): GET or POST /api/{project_id}/cron/{monitor_slug}/{key}/
// (or the key in X-Sentry-Auth, Authorization or the query), with `?status=in_progress|ok|error` and optionally
// check_in_id, environment and duration, or a JSON check-in as the body. It becomes a check_in item of an envelope
// handed to the intake's in-process entry, so the same key, quota and spool checks apply; the answer is 202 as
// Relay's, and a rate limit is not answered 429 (Relay: "Never respond with a 429").
import type http from "node:http";
import { INGEST_LIMITS, MONITOR_LIMITS } from "../config/limits";
import { extractAuth, isPublicKey } from "../protocol/auth";
import { jsonDepthExceeds } from "../protocol/json";
import { readBody } from "../protocol/content-encoding";
import { ProtocolError } from "../protocol/errors";
import { closeAfterAnswer } from "./linger";
import { CORS_HEADERS } from "./routes";
import type { SubmitEnvelope } from "./in-process";

export type CronRoute = { projectId: string; slug: string; publicKey: string | null };

const PATTERN = /^\/api\/(\d{1,18})\/cron\/([^/]{1,600})(?:\/([^/]{1,64}))?\/?$/;

export function matchCronRoute(pathname: string, basePath: string): CronRoute | null {
  if (basePath) {
    if (!pathname.startsWith(`${basePath}/`)) return null;
    pathname = pathname.slice(basePath.length);
  }
  const m = PATTERN.exec(pathname);
  if (!m) return null;
  let slug: string;
  try {
    slug = decodeURIComponent(m[2]!);
  } catch {
    slug = m[2]!;
  }
  return { projectId: m[1]!, slug, publicKey: m[3] ?? null };
}

const STATUSES = new Set(["ok", "error", "in_progress"]);

function answer(res: http.ServerResponse, status: number, detail: string | null, bodyUnread = false): void {
  const body = detail === null ? "" : JSON.stringify({ detail });
  // A body left unread is read and dropped after the answer (ingest/linger.ts), so the client reads the answer.
  if (bodyUnread) closeAfterAnswer(res);
  res.writeHead(status, {
    ...CORS_HEADERS,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    ...(detail ? { "x-sentry-error": detail } : {}),
    ...(bodyUnread ? { connection: "close" } : {}),
  });
  res.end(body);
}

/** The check-in the request describes, or a 400's reason. */
function checkInOf(body: Buffer | null, query: URLSearchParams, slug: string): Record<string, unknown> | string {
  if (body && body.length > 0) {
    const text = body.toString("utf8");
    // Deeper JSON is invalid to Relay too (serde_json's recursion limit), and would overflow the stack further on.
    if (jsonDepthExceeds(text, INGEST_LIMITS.maxJsonDepth)) return `the check-in nests deeper than ${INGEST_LIMITS.maxJsonDepth} levels`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return "the check-in is not valid JSON";
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return "the check-in must be a JSON object";
    return { ...(parsed as Record<string, unknown>), monitor_slug: slug };
  }
  const status = query.get("status");
  if (!status || !STATUSES.has(status)) return "status must be in_progress, ok or error";
  const duration = query.get("duration");
  const seconds = duration === null ? undefined : Number(duration);
  if (seconds !== undefined && !(Number.isFinite(seconds) && seconds >= 0)) return "duration must be a number of seconds";
  const environment = query.get("environment");
  const checkInId = query.get("check_in_id");
  return {
    check_in_id: checkInId ?? "00000000000000000000000000000000",
    monitor_slug: slug,
    status,
    ...(environment !== null && { environment }),
    ...(seconds !== undefined && { duration: seconds }),
  };
}

/** Answers every request, whatever happens: a failure of Faultline's own is logged and answered 503, as the intake's. */
export async function handleCron(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  route: CronRoute,
  clientIp: string,
  submit: SubmitEnvelope,
  log: (line: string) => void = console.error,
): Promise<void> {
  try {
    await handle(req, res, route, clientIp, submit);
  } catch (err) {
    log(`faultline: cron check-in error: ${(err as Error)?.stack ?? String(err)}`);
    if (!res.headersSent) answer(res, 503, "the server could not take the check-in; retry later", true);
    else res.destroy();
  }
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, route: CronRoute, clientIp: string, submit: SubmitEnvelope): Promise<void> {
  if (req.method === "OPTIONS")
    return void res.writeHead(200, { ...CORS_HEADERS, "access-control-allow-methods": "GET, POST, OPTIONS", "content-length": "0" }).end();
  if (req.method !== "GET" && req.method !== "POST") return answer(res, 405, "use GET or POST", true);
  const url = req.url ?? "/";
  const query = new URLSearchParams(url.includes("?") ? url.slice(url.indexOf("?") + 1) : "");
  if (route.slug.length > 4 * MONITOR_LIMITS.slugMaxLength) return answer(res, 400, "the monitor slug is too long", true);
  let publicKey = route.publicKey;
  try {
    if (!publicKey) publicKey = extractAuth({ headers: req.headers, query }).publicKey;
  } catch (err) {
    return answer(res, 401, err instanceof ProtocolError ? err.message : "missing authorization", true);
  }
  if (!isPublicKey(publicKey)) return answer(res, 401, "the public key is not 32 hexadecimal characters", true);
  let body: Buffer | null = null;
  const json = String(req.headers["content-type"] ?? "").startsWith("application/json");
  if (req.method === "POST" && json) {
    try {
      const encoding = req.headers["content-encoding"];
      // Within the intake's pace (a 408 past it): a check-in that stopped arriving was held for Node's 5 minutes.
      body = await readBody(
        req,
        Array.isArray(encoding) ? encoding[0] : encoding,
        { maxCompressedBytes: INGEST_LIMITS.maxCheckInBytes, maxDecompressedBytes: INGEST_LIMITS.maxCheckInBytes },
        { deadline: INGEST_LIMITS.bodyDeadline },
      );
    } catch (err) {
      return answer(
        res,
        err instanceof ProtocolError && err.reason === "payload_too_large" ? 413 : err instanceof ProtocolError && err.reason === "request_timeout" ? 408 : 400,
        err instanceof Error ? err.message : "the body could not be read",
        true,
      );
    }
  } else req.resume();
  const checkIn = checkInOf(body, query, route.slug);
  if (typeof checkIn === "string") return answer(res, 400, checkIn);
  const envelope = Buffer.from(`{}\n${JSON.stringify({ type: "check_in" })}\n${JSON.stringify(checkIn)}\n`);
  const result = await submit({
    body: envelope,
    clientIp,
    userAgent: typeof req.headers["user-agent"] === "string" ? req.headers["user-agent"] : null,
    auth: { projectId: route.projectId, publicKey, client: "sentry.cron/http" },
  });
  if (result.ok || result.status === 429) return answer(res, 202, null);
  answer(res, result.status, result.message);
}
