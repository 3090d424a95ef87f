// The request listener of Faultline's HTTP server: intake requests go straight to the intake (no framework, no
// rendering: the fastest path Node offers); everything else passes the raw-request guards and goes to Next.js.
import type http from "node:http";
import { CLIENT_IP_HEADER } from "../auth/client-ip";
import type { Config } from "../config/env";
import { type Intake, matchIntakeRoute } from "../ingest";
import { answerMetrics, isMetricsPath } from "../observability/http";
import { metrics } from "../observability/metrics";
import { routeLabel } from "../observability/route-label";
import { handleCron, matchCronRoute } from "../ingest/cron";
import { closeAfterAnswer } from "../ingest/linger";
import { baseSecurityHeaders } from "../web/security-headers";
import { type BodyPace, checkActionBody } from "./action-body";
import { explainBareAnswers } from "./bare-answers";
import { actionKind, bodyToPage } from "./form-action";
import {
  absoluteFormRefusal,
  ALLOWED_METHODS,
  crossOriginActionRefusal,
  forbiddenMethodRefusal,
  forwardedActionRefusal,
  malformedApiPathRefusal,
  nulInAddressRefusal,
  routerStateRefusal,
  STATIC_METHODS,
  staticMethodRefusal,
} from "./guards";

export type NextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/**
 * The client address as the server saw it. Behind a trusted proxy, the last X-Forwarded-For entry: the one the proxy
 * appended itself (entries to its left are whatever the client wrote, and would let it pick its rate-limit bucket).
 */
function clientIp(req: http.IncomingMessage, config: Pick<Config, "trustProxy">): string {
  if (config.trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const last = (Array.isArray(forwarded) ? forwarded.join(",") : forwarded)?.split(",").pop()?.trim();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? "unknown";
}

/** Forwarded-host headers are only believed from a trusted proxy; otherwise a client could claim any host. */
function dropUntrustedForwarding(req: http.IncomingMessage, config: Pick<Config, "trustProxy">): void {
  if (config.trustProxy) return;
  delete req.headers["x-forwarded-host"];
  delete req.headers["x-forwarded-proto"];
  delete req.headers["x-forwarded-for"];
}

/**
 * A Content-Security-Policy on a request is what Next reads a page's script nonce from. Only the middleware may set
 * one (src/middleware.ts); one a client sent would otherwise reach the pages the middleware does not see.
 */
function dropRequestPolicies(req: http.IncomingMessage): void {
  delete req.headers["content-security-policy"];
  delete req.headers["content-security-policy-report-only"];
}

const refuse = (res: http.ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify({ detail }));
};

/** `metricsToken`: FAULTLINE_METRICS_TOKEN; without it /metrics answers 404 on this listener. */
export function createListener(opts: {
  config: Pick<Config, "trustProxy" | "publicUrl">;
  basePath: string;
  intake: Intake;
  next: NextHandler | null;
  metricsToken?: (() => string) | null;
  /** The build's server actions (its server-reference-manifest.json), which a form's must name; null: any well-formed id. */
  actionIds?: ReadonlySet<string> | null;
  /** How long a server action's body may take to arrive (ACTION_LIMITS by default). */
  actionBodyPace?: BodyPace;
}) {
  const { config, basePath, intake, next } = opts;
  const actionIds = opts.actionIds ?? null;
  const metricsToken = opts.metricsToken ?? null;
  const security = baseSecurityHeaders(config.publicUrl);
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    // Every answer, the intake's included (it adds its CORS headers and keeps these); pages replace the policy.
    for (const [name, value] of security) res.setHeader(name, value);
    const absolute = absoluteFormRefusal(req);
    if (absolute) return refuse(res, 400, absolute);
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const route = matchIntakeRoute(query < 0 ? url : url.slice(0, query), basePath);
    if (route) return intake.handle({ req, res, route, clientIp: clientIp(req, config) });
    const pathname = query < 0 ? url : url.slice(0, query);
    if (isMetricsPath(pathname, basePath)) return answerMetrics(req, res, metricsToken);
    const cron = matchCronRoute(pathname, basePath);
    if (cron) return handleCron(req, res, cron, clientIp(req, config), intake.submitEnvelope);

    const forbiddenMethod = forbiddenMethodRefusal(req);
    if (forbiddenMethod) return refuse(res, 405, forbiddenMethod, { allow: ALLOWED_METHODS });
    const staticMethod = staticMethodRefusal(req, pathname, basePath);
    if (staticMethod) return refuse(res, 405, staticMethod, { allow: STATIC_METHODS });
    const forwarded = forwardedActionRefusal(req);
    if (forwarded) return refuse(res, 404, forwarded);
    dropUntrustedForwarding(req, config);
    dropRequestPolicies(req);
    const action = actionKind(req, pathname, basePath);
    const crossOrigin = crossOriginActionRefusal(req, action !== null);
    if (crossOrigin) return refuse(res, 403, crossOrigin);
    const routerState = routerStateRefusal(req);
    if (routerState) return refuse(res, 400, routerState);
    const malformedPath = malformedApiPathRefusal(pathname, basePath);
    if (malformedPath) return refuse(res, 400, malformedPath);
    const nul = nulInAddressRefusal(url);
    if (nul) return refuse(res, 400, nul);
    let checked: Awaited<ReturnType<typeof checkActionBody>>;
    try {
      checked = await checkActionBody(req, action ?? (bodyToPage(req, pathname, basePath) ? "page" : null), actionIds, opts.actionBodyPace);
    } catch {
      return refuse(res, 400, "Could not read the request body");
    }
    // A body refused before its end (408, 413) closes its connection after the answer (http-server.ts).
    if ("refusal" in checked) return refuse(res, checked.refusal.status, checked.refusal.detail);
    req.headers[CLIENT_IP_HEADER] = clientIp(req, config);
    // Timed from here to the answer's last byte: the page's render (or the API call) and its sending.
    const timed = metrics().pageTimer(routeLabel(pathname, basePath));
    // A live stream (server-sent events) lasts minutes by design: it is not a render time.
    res.once("finish", () => {
      if (!String(res.getHeader("content-type") ?? "").startsWith("text/event-stream")) timed(res.statusCode);
    });
    // An answer that closes the connection (the web API's 413 and 408, web/api/errors.ts) may come before the body was
    // read: the connection then closes as the intake's do, so a client still sending gets the answer, not a reset.
    closeAfterAnswer(res);
    // A route handler's bare 405 (the method is not one of the route's) gets a {"detail": …} (bare-answers.ts).
    explainBareAnswers(req, res);
    if (next) await next(checked.request, res);
    else refuse(res, 404, "Not found");
  };
}
