// Glob patterns as Sentry's enhancement matchers use them (getsentry/sentry
// src/sentry/utils/glob.py `glob_match` / `translate`): `**` crosses slashes when doublestar is on,
// `*` does not then; `?` is any one character; `[...]` is a class (`[!...]` negated); a backslash
// escapes the next character; the whole value must match.

const cache = new Map<string, RegExp>();

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

export function translateGlob(pattern: string, doublestar: boolean): RegExp {
  const key = `${doublestar ? "1" : "0"}${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let out = "";
  let i = 0;
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i] as string;
    i += 1;
    if (c === "\\" && i < n) {
      out += escapeRe(pattern[i] as string);
      i += 1;
    } else if (c === "*") {
      if (doublestar && pattern[i] === "*") {
        out += "[\\s\\S]*";
        i += 1;
      } else {
        out += doublestar ? "[^/]*" : "[\\s\\S]*";
      }
    } else if (c === "?") {
      out += "[\\s\\S]";
    } else if (c === "[") {
      let j = i;
      if (j < n && pattern[j] === "!") j += 1;
      if (j < n && pattern[j] === "]") j += 1;
      while (j < n && pattern[j] !== "]") j += 1;
      if (j >= n) {
        out += "\\[";
      } else {
        let body = pattern.slice(i, j).replace(/\\/g, "\\\\").replace(/\]/g, "\\]");
        i = j + 1;
        if (body.startsWith("!")) body = "^" + body.slice(1);
        else if (body.startsWith("^")) body = "\\" + body;
        out += `[${body}]`;
      }
    } else {
      out += escapeRe(c);
    }
  }
  const re = new RegExp(`^(?:${out})$`);
  cache.set(key, re);
  return re;
}

export function globMatch(
  value: string,
  pattern: string,
  opts: { doublestar?: boolean; ignorecase?: boolean; pathNormalize?: boolean } = {},
): boolean {
  let v = value;
  let p = pattern;
  if (opts.ignorecase) {
    v = v.toLowerCase();
    p = p.toLowerCase();
  }
  if (opts.pathNormalize) {
    v = v.replace(/\\/g, "/");
    p = p.replace(/\\/g, "/");
  }
  return translateGlob(p, opts.doublestar ?? false).test(v);
}
