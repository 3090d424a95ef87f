// Locale routing only: "/" and locale-less paths redirect to /{locale}/… (NEXT_LOCALE cookie, then Accept-Language).
// Authorization is never decided here; every page, action and route handler checks it on the server.
import createMiddleware from "next-intl/middleware";
import { routing } from "./i18n/routing";

export default createMiddleware(routing);

export const config = {
  // "/" is listed on its own: under a base path the second pattern does not match the bare prefix.
  // API routes, the health probe, Next's assets and files with an extension are not localized.
  matcher: ["/", "/((?!api/|api$|_health|_next/|_vercel|.*\\.[\\w]+$).*)"],
};
