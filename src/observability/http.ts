// `GET /metrics`: never public by default. On the main port only with FAULTLINE_METRICS_TOKEN as a bearer token; on a
// listener of its own (FAULTLINE_METRICS_ADDRESS) without one, for a Prometheus on loopback or a private network.
// Neither configured: 404, as for any path that is not there.
import { createHash, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import { createHttpServer } from "../server/http-server";
import { metrics } from "./metrics";

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Whether the request carries the token (compared in constant time, over hashes of equal length). */
function authorized(req: http.IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? "";
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m !== null && timingSafeEqual(digest(m[1]!), digest(token));
}

async function send(res: http.ServerResponse, method: string | undefined): Promise<void> {
  const { registry } = metrics();
  const body = await registry.metrics();
  res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store", "content-length": String(Buffer.byteLength(body)) });
  res.end(method === "HEAD" ? undefined : body);
}

function refuse(res: http.ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify({ detail }));
}

/** True for the paths the metrics answer on: /metrics, and under the base path too. */
export function isMetricsPath(pathname: string, basePath: string): boolean {
  return pathname === "/metrics" || (basePath !== "" && pathname === `${basePath}/metrics`);
}

/** The main port's answer: the metrics with the right token, 401 with a wrong one, 404 when no token is configured. */
export async function answerMetrics(req: http.IncomingMessage, res: http.ServerResponse, token: (() => string) | null): Promise<void> {
  if (!token) return refuse(res, 404, "Not found");
  if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, 405, "use GET", { allow: "GET, HEAD" });
  if (!authorized(req, token())) return refuse(res, 401, "a bearer token is required", { "www-authenticate": 'Bearer realm="faultline metrics"' });
  await send(res, req.method);
}

/** The metrics' own listener: /metrics to whoever reaches the address, 404 for anything else. */
export async function startMetricsListener(address: { host: string; port: number }): Promise<http.Server> {
  const server = createHttpServer((req, res) => {
    const path = (req.url ?? "/").split("?", 1)[0];
    if (path !== "/metrics") return refuse(res, 404, "Not found");
    if (req.method !== "GET" && req.method !== "HEAD") return refuse(res, 405, "use GET", { allow: "GET, HEAD" });
    send(res, req.method).catch(() => refuse(res, 500, "metrics unavailable"));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(address.port, address.host, () => resolve());
  });
  return server;
}
