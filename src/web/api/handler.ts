// Wraps every /api/0 route: bearer-token (or session) authentication, JSON body parsing with a size limit,
// and the error table. Routes stay thin: parse, call one core function, serialize.
import "server-only";
import { API_LIMITS } from "../../config/limits";
import type { CoreContext } from "../../core/context";
import { AppError } from "../../core/errors";
import { authenticateToken } from "../../core/tokens";
import { getServices } from "../../runtime/services";
import type { User } from "../../storage/ports";
import { toErrorResponse } from "./errors";

export type ApiContext<P> = { req: Request; url: URL; params: P; core: CoreContext; publicUrl: string; basePath: string };
type Handler<P> = (ctx: ApiContext<P>) => Promise<Response>;

async function authenticate(req: Request): Promise<User> {
  const { store, auth } = getServices();
  const header = req.headers.get("authorization");
  if (header) {
    const [scheme, token] = header.trim().split(/\s+/, 2);
    if (scheme?.toLowerCase() !== "bearer" || !token) throw new AppError("unauthorized", "Authorization header must be 'Bearer <token>'");
    const user = await authenticateToken(store, token);
    if (!user) throw new AppError("unauthorized", "Invalid token");
    return user;
  }
  const session = await auth.api.getSession({ headers: req.headers });
  const user = session ? await store.getUserById(session.user.id) : null;
  if (!user) throw new AppError("unauthorized", "Authentication credentials were not provided.");
  return user;
}

export function apiRoute<P = Record<string, string>>(handler: Handler<P>) {
  return async (req: Request, { params }: { params: P }): Promise<Response> => {
    try {
      const user = await authenticate(req);
      const { store, config, basePath } = getServices();
      return await handler({ req, url: new URL(req.url), params, core: { store, actor: { user } }, publicUrl: config.publicUrl, basePath });
    } catch (err) {
      return toErrorResponse(err);
    }
  };
}

/** Reads a JSON object body; 400 for malformed JSON, 413 beyond the limit. */
export async function readJson(req: Request): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (Buffer.byteLength(text) > API_LIMITS.maxJsonBodyBytes) throw new AppError("payload_too_large", `Request body is larger than ${API_LIMITS.maxJsonBodyBytes} bytes`);
  if (text.trim() === "") return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "Request body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new AppError("bad_request", "Request body must be a JSON object");
  return body as Record<string, unknown>;
}

/** Sentry's Link header: previous and next cursors with results="true|false". */
export function linkHeader(url: URL, nextCursor: string | null, publicUrl: string, basePath: string): string {
  const base = new URL(`${publicUrl}${basePath}${url.pathname.slice(basePath.length)}`);
  url.searchParams.forEach((v, k) => k !== "cursor" && base.searchParams.append(k, v));
  const withCursor = (c: string) => {
    const u = new URL(base);
    u.searchParams.set("cursor", c);
    return u.toString();
  };
  const prev = `<${withCursor("")}>; rel="previous"; results="false"; cursor=""`;
  const next = nextCursor ? `<${withCursor(nextCursor)}>; rel="next"; results="true"; cursor="${nextCursor}"` : `<${withCursor("")}>; rel="next"; results="false"; cursor=""`;
  return `${prev}, ${next}`;
}

export function paged<T>(items: T[], nextCursor: string | null, ctx: ApiContext<unknown>, status = 200): Response {
  return Response.json(items, { status, headers: { Link: linkHeader(ctx.url, nextCursor, ctx.publicUrl, ctx.basePath) } });
}

export const numericId = (value: string, what: string): number => {
  if (!/^\d{1,15}$/.test(value)) throw new AppError("not_found", `${what} not found`);
  return Number(value);
};
