// Checks made on the raw request before Next.js sees it.
import type http from "node:http";
import { parseAndValidateFlightRouterState } from "next/dist/server/app-render/parse-and-validate-flight-router-state.js";
import { nulInUrl } from "../web/api/nul";

/**
 * Next.js refuses a server action whose Origin is not this host, but answers 500. A cross-site form post is the
 * caller's fault: answer 403 with a clear message instead. `isAction`: Next.js takes the request as a server action
 * (fetch-style, or a form's without JavaScript: server/form-action.ts).
 */
export function crossOriginActionRefusal(req: http.IncomingMessage, isAction: boolean): string | null {
  if (!isAction) return null;
  const origin = req.headers.origin;
  if (!origin) return null;
  const forwardedHost = req.headers["x-forwarded-host"];
  const host = (Array.isArray(forwardedHost) ? forwardedHost[0] : forwardedHost) ?? req.headers.host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return "Malformed Origin header";
  }
  return originHost === host ? null : "Cross-origin server action refused";
}

/**
 * A server action Next.js forwards to the page that has it (app-render/action-handler.js: an action posted to a page
 * whose bundle lacks it is sent on, by fetch to this server, with `x-action-forwarded`). Next builds the page's address
 * from its bundle path, `/[locale]/…` literally, which is no address of Faultline's: the fetch followed the redirect
 * that answers it, failed, and logged a stack trace for every such post. No legitimate client posts one either (the
 * browser posts an action to the page that rendered it). The forwarded request is answered 404 here, which Next takes
 * quietly, and the post goes on as Next handles an unforwarded one.
 */
export function forwardedActionRefusal(req: http.IncomingMessage): string | null {
  return req.headers["x-action-forwarded"] === undefined ? null : "Server actions are not forwarded between pages: post the action to the page it belongs to";
}

/** The methods Faultline's pages and API serve (the Allow header of a 405). */
export const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";
const SERVED_METHODS = new Set(ALLOWED_METHODS.split(", "));

/**
 * A method Faultline serves nowhere. TRACE, which the Fetch standard forbids: Next.js builds a `Request` for every
 * request it handles, which throws on it, and the framework answered 500. The others Node's parser takes (PROPFIND,
 * SEARCH, PURGE, …): a route handler answered them with a bare 400 (no body), a static file with an HTML 405 page.
 * (Of the other forbidden methods, Node's parser refuses TRACK with a 400, and CONNECT never reaches a request
 * listener: http-server.ts.) 405, with the methods served.
 */
export function forbiddenMethodRefusal(req: http.IncomingMessage): string | null {
  return SERVED_METHODS.has(req.method ?? "") ? null : `${req.method} is not supported`;
}

/** The methods of the build's static files. */
export const STATIC_METHODS = "GET, HEAD";

/** A method other than GET or HEAD on the build's static files (`/_next/static/…`): Next.js answered an HTML 405 page. */
export function staticMethodRefusal(req: http.IncomingMessage, pathname: string, basePath: string): string | null {
  if (!pathname.startsWith(`${basePath}/_next/static/`) || req.method === "GET" || req.method === "HEAD") return null;
  return `${req.method} is not supported on the build's static files`;
}

/**
 * The router's state header of a client-side navigation, checked as Next.js reads it (its own function, so the rules
 * are the framework's): Next throws on one it cannot read, and the framework answered 500 to anyone sending it.
 */
export function routerStateRefusal(req: http.IncomingMessage): string | null {
  const header = req.headers["next-router-state-tree"];
  if (header === undefined) return null;
  try {
    parseAndValidateFlightRouterState(header);
    return null;
  } catch (err) {
    return `Next-Router-State-Tree: ${(err as Error).message}`;
  }
}

/**
 * An API path whose percent-encoding does not decode (`/api/0/organizations/%zz/`): Next answers it with its HTML
 * 400 page; an API client is owed `{"detail": …}`.
 */
export function malformedApiPathRefusal(pathname: string, basePath: string): string | null {
  if (!pathname.startsWith(`${basePath}/api/`)) return null;
  try {
    decodeURIComponent(pathname);
    return null;
  } catch {
    return "The path's percent-encoding is malformed";
  }
}

/**
 * A NUL character in a request's decoded path or query (`%00`), on a page as on the API. PostgreSQL cannot hold one
 * in a statement, and a page's filter (`?environment=a%00b`) went on to one and answered 500 on PostgreSQL installs.
 * No address of Faultline's means a NUL: 400, naming where it is. (The intake's paths never come here.)
 */
export function nulInAddressRefusal(rawUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(rawUrl, "http://faultline.invalid");
  } catch {
    return null;
  }
  const where = nulInUrl(url);
  return where ? `${where} must not contain NUL characters` : null;
}

/**
 * A request target in absolute form (`GET http://host/path HTTP/1.1`, as a client talking to a proxy sends it), made
 * the origin form the rest of the server reads: RFC 9112 §3.2.2 has servers accept it, and its authority stands for
 * the Host header. Next.js read the whole URL as a path and redirected to `http:/host/path`. Returns a refusal for a
 * target that is not a URL; null once the request reads as origin form.
 */
export function absoluteFormRefusal(req: http.IncomingMessage): string | null {
  const target = req.url ?? "/";
  if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return "The request target is not a path or a URL";
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.host === "") return `The request target ${url.protocol} URL is not one this server serves`;
  req.url = `${url.pathname}${url.search}`;
  req.headers.host = url.host;
  return null;
}
