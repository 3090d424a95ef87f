// Locale routing only: "/" and locale-less paths redirect to /{locale}/… (NEXT_LOCALE cookie, then Accept-Language).
// Authorization is never decided here; every page, action and route handler checks it on the server.
import type { NextRequest } from "next/server";
import createMiddleware from "next-intl/middleware";
import { routing } from "./i18n/routing";

const localeRouting = createMiddleware(routing);

export default function middleware(req: NextRequest) {
  const res = localeRouting(req);
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

export const config = {
  // "/" is listed on its own: under a base path the second pattern does not match the bare prefix.
  // API routes, the health probe, the browser tunnel (/monitoring), Next's assets and files with an extension are not localized.
  matcher: ["/", "/((?!api/|api$|_health|monitoring$|_next/|_vercel|.*\\.[\\w]+$).*)"],
};
