// Wraps every /api/0 route: bearer-token (or session) authentication, the token scope the route declares (Sentry's
// scopes, core/token-scopes.ts: 403 with Sentry's message without it), JSON body parsing with a size limit,
// and the error table. A bearer token is a person's (personal API token) or an organization's (`sntrys_`, acting
// for that organization alone with its scopes); the token itself is never logged. Routes stay thin: parse, call one core function, serialize.
import "server-only";
import { CLIENT_IP_HEADER } from "../../auth/create-auth";
import { API_LIMITS } from "../../config/limits";
import { type Actor, actorScopes, type CoreContext } from "../../core/context";
import { AppError } from "../../core/errors";
import { authenticateBearer } from "../../core/org-tokens";
import { noteSessionSeen } from "../../core/sessions";
import { type RouteScope, SCOPE_DENIED_MESSAGE, scopeSatisfied } from "../../core/token-scopes";
import { jsonDepthExceeds } from "../../protocol/json";
import { getServices } from "../../runtime/services";
import { bodyChunks } from "./body-chunks";
import { toErrorResponse } from "./errors";
import { nulInJson } from "./nul";
import { parametersRead, trackParameterReads } from "./read-params";

export type ApiContext<P> = { req: Request; url: URL; params: P; core: CoreContext; publicUrl: string; basePath: string };
type Handler<P> = (ctx: ApiContext<P>) => Promise<Response>;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A browser session may only write through the API with a JSON body from this origin: a cross-site form or a
 * text/plain fetch cannot meet both (bearer tokens are not sent by browsers on their own, so they need no check).
 */
function assertSameOriginJson(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const type = req.headers.get("content-type") ?? "";
  const origin = req.headers.get("origin");
  const host = req.headers.get("host");
  // An Origin that is no URL ("null" from a sandboxed frame or a privacy-sensitive redirect, or garbage) is no origin of this host.
  if (!type.startsWith("application/json") || (origin !== null && originHost(origin) !== host)) {
    throw new AppError("forbidden", "Writes with a session cookie need Content-Type: application/json from the same origin");
  }
}

function originHost(origin: string): string | null {
  return URL.canParse(origin) ? new URL(origin).host : null;
}

async function authenticate(req: Request): Promise<Actor> {
  const { store, auth } = getServices();
  const header = req.headers.get("authorization");
  if (header) {
    const [scheme, token] = header.trim().split(/\s+/, 2);
    if (scheme?.toLowerCase() !== "bearer" || !token) throw new AppError("unauthorized", "Authorization header must be 'Bearer <token>'");
    const actor = await authenticateBearer(store, token);
    if (!actor) throw new AppError("unauthorized", "Invalid token");
    return actor;
  }
  const session = await auth.api.getSession({ headers: req.headers });
  const user = session ? await store.getUserById(session.user.id) : null;
  if (!session || !user) throw new AppError("unauthorized", "Authentication credentials were not provided.");
  assertSameOriginJson(req);
  // The web API called from a signed-in page counts as the session seen (throttled, core/sessions.ts).
  await noteSessionSeen(store, session.session.id).catch((err: unknown) => console.error("faultline: noting a session as seen failed", err));
  return { user };
}

/**
 * A route handler that needs `scope` (or any one of a list) of a token: Sentry's scope maps, e.g. "project:read" for a
 * GET of project settings, "event:write" for triage. Sessions and tokens without scopes are not limited by it; the
 * role check in the core applies to everyone.
 */
export function apiRoute<P = Record<string, string>>(scope: RouteScope | readonly RouteScope[], handler: Handler<P>) {
  return async (req: Request, { params }: { params: P }): Promise<Response> => {
    try {
      const actor = await authenticate(req);
      if (!scopeSatisfied(actorScopes(actor), scope)) throw new AppError("forbidden", SCOPE_DENIED_MESSAGE);
      const { store, config, basePath } = getServices();
      const core = { store, actor, ip: req.headers.get(CLIENT_IP_HEADER) };
      // (A NUL in the address was refused before Next: server/guards.ts nulInAddressRefusal.)
      const url = new URL(req.url);
      trackParameterReads(url);
      return await handler({ req, url, params, core, publicUrl: config.publicUrl, basePath });
    } catch (err) {
      return toErrorResponse(err);
    }
  };
}

/**
 * Reads the body, stopping as soon as it passes the limit (a declared Content-Length is checked first) or no byte
 * has come for API_LIMITS.bodyIdleMs, or the whole has not within bodyDeadlineMs (408).
 */
export async function readCappedBytes(req: Request, limit: number): Promise<Buffer> {
  if (Number(req.headers.get("content-length") ?? 0) > limit) throw new AppError("payload_too_large", `Request body is larger than ${limit} bytes`);
  const chunks: Uint8Array[] = [];
  for await (const chunk of bodyChunks(req, limit, API_LIMITS.bodyIdleMs, API_LIMITS.bodyDeadlineMs)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Reads a JSON object body; 400 for malformed or too deeply nested JSON, 413 beyond the limit. */
export async function readJson(req: Request): Promise<Record<string, unknown>> {
  const text = (await readCappedBytes(req, API_LIMITS.maxJsonBodyBytes)).toString("utf8");
  if (text.trim() === "") return {};
  // JSON.parse takes any depth; what reads the value afterwards (validation, JSON.stringify) recurses and would overflow.
  if (jsonDepthExceeds(text, API_LIMITS.maxJsonDepth)) throw new AppError("bad_request", `Request body nests deeper than ${API_LIMITS.maxJsonDepth} levels`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "Request body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new AppError("bad_request", "Request body must be a JSON object");
  const nul = nulInJson(body);
  if (nul) throw new AppError("bad_request", `${nul} must not contain NUL characters`);
  return body as Record<string, unknown>;
}

/** Sentry's Link header: previous and next cursors with results="true|false", carrying the parameters the route read. */
export function linkHeader(url: URL, nextCursor: string | null, publicUrl: string, basePath: string): string {
  const base = new URL(`${publicUrl}${basePath}${url.pathname.slice(basePath.length)}`);
  for (const [k, v] of parametersRead(url)) base.searchParams.append(k, v);
  if (base.search.length > API_LIMITS.maxLinkQueryBytes) {
    throw new AppError(
      "uri_too_long",
      `The list's parameters are too long to page through: ${base.search.length} bytes percent-encoded, at most ${API_LIMITS.maxLinkQueryBytes}`,
    );
  }
  const withCursor = (c: string) => {
    const u = new URL(base);
    u.searchParams.set("cursor", c);
    return u.toString();
  };
  const prev = `<${withCursor("")}>; rel="previous"; results="false"; cursor=""`;
  const next = nextCursor
    ? `<${withCursor(nextCursor)}>; rel="next"; results="true"; cursor="${nextCursor}"`
    : `<${withCursor("")}>; rel="next"; results="false"; cursor=""`;
  return `${prev}, ${next}`;
}

export function paged<T>(items: T[], nextCursor: string | null, ctx: ApiContext<unknown>, status = 200): Response {
  return Response.json(items, { status, headers: { Link: linkHeader(ctx.url, nextCursor, ctx.publicUrl, ctx.basePath) } });
}
