// The security headers of every answer Faultline gives, in one place. Pure (no Node or Next imports): the server's
// listener (src/server/listener.ts) and the middleware (src/middleware.ts, the edge runtime) both use it.
//
// The listener puts BASE headers on every answer, the intake's and its own refusals included: no MIME sniffing, no
// framing, no referrer beyond this origin, HSTS when the public URL is https, and a Content-Security-Policy that lets
// a document load nothing (API answers, assets, refusals are never pages). The middleware replaces that policy on
// pages with one whose nonce is made per request: Next reads it from the request's policy and puts it on its own
// scripts (the dashboard, App Router, rendered per request). The docs (Pages Router, prerendered at build) carry no
// nonce and need none: they run no inline script.

/** What any answer carries (lowercase names). */
export function baseSecurityHeaders(publicUrl: string): [string, string][] {
  const headers: [string, string][] = [
    ["x-content-type-options", "nosniff"],
    ["x-frame-options", "DENY"],
    ["referrer-policy", "same-origin"],
    ["content-security-policy", NOTHING_POLICY],
  ];
  // A year, the value browsers' preload lists ask for; only this host (the install may share a parent domain).
  if (publicUrl.startsWith("https://")) headers.push(["strict-transport-security", "max-age=31536000"]);
  return headers;
}

const policy = (directives: Record<string, string>) =>
  Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join("; ");

/** Answers that are not pages: a document there may load nothing and be framed by nobody. */
export const NOTHING_POLICY = policy({ "default-src": "'none'", "frame-ancestors": "'none'", "base-uri": "'none'", "form-action": "'none'" });

/** What every page may do besides running its scripts: its own styles, images, fonts and connections (the server
 *  actions, the live stream, the self-monitoring tunnel `/monitoring`: all this origin); nothing framed, no plugins. */
const PAGE = {
  "default-src": "'none'",
  "img-src": "'self' data:",
  "font-src": "'self'",
  "connect-src": "'self'",
  "manifest-src": "'self'",
  "frame-ancestors": "'none'",
  "base-uri": "'none'",
  "form-action": "'self'",
  "object-src": "'none'",
};

/**
 * The dashboard's policy for one response. Scripts: those carrying the nonce (Next writes it on each of its inline and
 * external scripts) and files of this origin (webpack's chunks, the SDK's). Not 'strict-dynamic': every script
 * Faultline runs is its own file, and 'strict-dynamic' would let any script element made by a script run, inline ones
 * included, nonce or not. Styles: the stylesheets of this origin and style elements carrying the nonce; style
 * attributes (bar widths, chart sizes) are allowed, as they cannot run anything ('unsafe-inline' in `style-src` is only
 * for browsers that do not know `style-src-elem`/`-attr`).
 */
export function dashboardPolicy(nonce: string): string {
  return policy({
    ...PAGE,
    "script-src": `'self' 'nonce-${nonce}'`,
    "style-src": "'self' 'unsafe-inline'",
    "style-src-elem": `'self' 'nonce-${nonce}'`,
    "style-src-attr": "'unsafe-inline'",
  });
}

/**
 * The docs' paths. Their pages are prerendered once for every visitor (Pages Router): they carry no nonce and run no
 * inline script, only files of this origin. A guide that does not exist is answered by the dashboard's 404 page, whose
 * inline scripts carry the nonce. Inline styles are allowed: the Pages Router inserts a page's stylesheet as a style
 * element on client-side navigation, and the docs hold no text from anyone but Faultline.
 */
export function docsPolicy(nonce: string): string {
  return policy({ ...PAGE, "script-src": `'self' 'nonce-${nonce}'`, "style-src": "'self' 'unsafe-inline'" });
}

/** A nonce: 128 random bits, base64 (Web Crypto, as in the edge runtime). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}
