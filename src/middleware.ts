// Every page's Content-Security-Policy, and locale routing: "/" and locale-less paths redirect to /{locale}/…
// (NEXT_LOCALE cookie, then Accept-Language). Authorization is never decided here; every page, action and route handler
// checks it on the server.
//
// A page's policy carries a nonce made for this request (web/security-headers.ts). It goes on the response and on
// the request Next renders: Next reads the nonce from the request's policy and puts it on every script it writes. The
// docs are prerendered without a nonce and run no inline script; theirs also allows inline styles. The server's
// listener has already dropped any policy the client sent and put the base headers on the answer
// (src/server/listener.ts).
import { type NextRequest, NextResponse } from "next/server";
import createMiddleware from "next-intl/middleware";
import { routing } from "./i18n/routing";
import { dashboardPolicy, docsPolicy, newNonce } from "./web/security-headers";

const localeRouting = createMiddleware(routing);

const CSP = "content-security-policy";
/** The docs (src/pages/[locale]/docs, prerendered at build; a guide that does not exist gets the dashboard's 404). */
const DOCS = /^\/[a-z]{2}\/docs(?:\/|$)/;
/** A path ending in a file extension: not localized (there is no such page; Next answers it with the 404 page). */
const FILE = /\.[\w]+$/;

/**
 * A request a page's script made, not a page a person opened: the router's prefetches and page data (Next strips their
 * RSC and Next-Router-Prefetch headers before the middleware, but not Next-Url, the page they come from), a server
 * action (Next-Action), or anything a browser marks so in its Fetch Metadata (Sec-Fetch-Dest other than "document").
 */
function fromScript(req: NextRequest): boolean {
  const dest = req.headers.get("sec-fetch-dest");
  return req.headers.has("next-url") || req.headers.has("next-action") || (dest !== null && dest !== "document");
}

/**
 * next-intl remembers the language of every localized request whose path names another than the cookie (NEXT_LOCALE).
 * Only a page a person opens says which language they want: the router's prefetches of the page they were leaving,
 * answered after the language switcher stored the new choice, set the old one back, and so did an action in a tab
 * still showing the old language. Those requests are routed without the cookie: they name their locale in their path.
 */
const scriptLocaleRouting = createMiddleware({ ...routing, localeCookie: false });

/** Locale routing as next-intl does it, with two repairs (below). */
function routeLocale(req: NextRequest): NextResponse {
  const res = (fromScript(req) ? scriptLocaleRouting : localeRouting)(req);
  // Under a base path next-intl answers every localized URL with a rewrite to that same URL. Next compares the
  // rewrite's origin with its own listen address, and when they differ (0.0.0.0, or 127.0.0.1 against "localhost")
  // it proxies the request to itself as an external URL, forever. A rewrite to the requested path is a no-op: turn it
  // into a pass-through (what NextResponse.next() marks with x-middleware-next), keeping next-intl's request headers.
  const rewrite = res.headers.get("x-middleware-rewrite");
  if (rewrite) {
    const target = new URL(rewrite);
    if (target.pathname === `${req.nextUrl.basePath}${req.nextUrl.pathname}` && target.search === req.nextUrl.search) {
      res.headers.delete("x-middleware-rewrite");
      res.headers.set("x-middleware-next", "1");
    }
  }
  return res;
}

/**
 * Sets a header on the request Next goes on to render (Next's own mechanism, which NextResponse.next({ request })
 * uses): the override list names every request header that remains, so without one yet it lists all of them.
 */
function setRequestHeader(res: NextResponse, req: NextRequest, name: string, value: string): void {
  const listed = res.headers.get("x-middleware-override-headers");
  const names = listed ? listed.split(",").map((n) => n.trim()) : [...req.headers.keys()];
  if (!listed) for (const [k, v] of req.headers) res.headers.set(`x-middleware-request-${k}`, v);
  if (!names.includes(name)) names.push(name);
  res.headers.set("x-middleware-override-headers", names.join(","));
  res.headers.set(`x-middleware-request-${name}`, value);
}

export default function middleware(req: NextRequest) {
  const path = req.nextUrl.pathname;
  const res = FILE.test(path) ? NextResponse.next() : routeLocale(req);
  const nonce = newNonce();
  const policy = DOCS.test(path) ? docsPolicy(nonce) : dashboardPolicy(nonce);
  res.headers.set(CSP, policy);
  // Only a page rendered here needs the nonce; a redirect renders nothing.
  if (res.headers.has("x-middleware-next") || res.headers.has("x-middleware-rewrite")) setRequestHeader(res, req, CSP, policy);
  return res;
}

export const config = {
  // "/" is listed on its own: under a base path the second pattern does not match the bare prefix.
  // API routes, the health probe, the browser tunnel (/monitoring) and Next's assets are not pages.
  matcher: ["/", "/((?!api/|api$|_health|monitoring$|_next/|_vercel).*)"],
};
