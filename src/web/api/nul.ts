// NUL characters in what a web API request names or sends. PostgreSQL's text and jsonb cannot hold them: a name, a
// search or a slug with one made the statement fail ("invalid byte sequence for encoding UTF8: 0x00"), a 500 on
// PostgreSQL installs only. No field of Sentry's API means a NUL, so the request is refused (400) before the core.
// (The intake's payloads are not refused: the digest strips NUL from events, digest/normalize/nul.ts.)

/** Where in a parsed JSON body a string or key holds a NUL (`name`, `projects[0]`), or null. Depth is bounded by readJson. */
export function nulInJson(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.includes("\u0000") ? path || "the body" : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulInJson(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes("\u0000")) return `a key of ${path || "the body"}`;
      const found = nulInJson(v, at);
      if (found) return found;
    }
  }
  return null;
}

/** Which part of a request's address holds a NUL once decoded (the path, or a query parameter by name), or null. */
export function nulInUrl(url: URL): string | null {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (path.includes("\u0000")) return "the path";
  for (const [key, value] of url.searchParams)
    if (key.includes("\u0000") || value.includes("\u0000")) return `the parameter ${JSON.stringify(key.replaceAll("\u0000", ""))}`;
  return null;
}
