// POST /monitoring (under the base path when one is set): the browser tunnel of Faultline's own pages. The SDK's
// `tunnel` option posts here; ingest/tunnel.ts decides, the intake takes the envelope in-process.
// GET /monitoring: the self-monitoring configuration for pages prerendered at build (the docs), which cannot carry
// it; the same the root layout renders into every other page (a public DSN), or 204 when self-monitoring is off.
import { CLIENT_IP_HEADER } from "@/auth/create-auth";
import { isAppError } from "@/core/errors";
import { inProcessIntake } from "@/ingest/in-process";
import { tunnelEnvelope } from "@/ingest/tunnel";
import { SELF_MONITORING_LIMITS } from "@/config/limits";
import { getServices } from "@/runtime/services";
import { toErrorResponse } from "@/web/api/errors";
import { readCappedBytes } from "@/web/api/handler";
import { selfMonitoringClientConfig } from "@/web/self-monitoring/server-config";

export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  let body: Buffer;
  try {
    body = await readCappedBytes(req, SELF_MONITORING_LIMITS.maxTunnelBodyBytes);
  } catch (err) {
    // 413 past the limit, 408 for a body that stops arriving, 400 for one cut off: each closes what it did not read.
    if (isAppError(err)) return toErrorResponse(err);
    throw err;
  }
  const { config, basePath } = getServices();
  const answer = await tunnelEnvelope(
    { body, clientIp: req.headers.get(CLIENT_IP_HEADER) ?? "127.0.0.1", userAgent: req.headers.get("user-agent") },
    { publicUrl: config.publicUrl, basePath },
    inProcessIntake(),
  );
  return Response.json(answer.body, { status: answer.status });
}

export async function GET(): Promise<Response> {
  const config = await selfMonitoringClientConfig();
  if (!config) return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  // Cached by the browser for a minute, as the server caches the DSN for seconds: a docs visit asks once.
  return Response.json(config, { headers: { "cache-control": "private, max-age=60" } });
}
