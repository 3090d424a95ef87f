// Glob patterns as Sentry's enhancement matchers use them (getsentry/sentry
// src/sentry/utils/glob.py `glob_match` / `translate`): `**` crosses slashes when doublestar is on,
// `*` does not then; `?` is any one character; `[...]` is a class (`[!...]` negated); a backslash
// escapes the next character; the whole value must match.
//
// In linear time. A pattern is matched by a regular expression (fast on the short values frames
// carry) only when backtracking cannot make it superlinear: at most one star, or every star but
// the last followed by nothing but stars (consecutive stars are one). Any other pattern, such as
// `**/*newrelic*/**` (a long path segment repeating "newrelic" made it quadratic), is matched by
// simulating its automaton over the value: every position once, all states at a time.

const cache = new Map<string, GlobMatcher>();

/** What a compiled glob offers: whether a whole value matches. */
export type GlobMatcher = { test(value: string): boolean };

type Token = { kind: "char"; value: string } | { kind: "any" } | { kind: "class"; re: RegExp } | { kind: "star"; crossesSlash: boolean };

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

const tokenSource = (t: Token): string =>
  t.kind === "char"
    ? escapeRe(t.value)
    : t.kind === "any"
      ? "[\\s\\S]"
      : t.kind === "class"
        ? t.re.source.slice(1, -1)
        : t.crossesSlash
          ? "[\\s\\S]*"
          : "[^/]*";

/** The pattern as tokens; consecutive stars are one (the widest of them), which matches the same values. */
function tokenize(pattern: string, doublestar: boolean): Token[] {
  const tokens: Token[] = [];
  const addStar = (crossesSlash: boolean) => {
    const last = tokens[tokens.length - 1];
    if (last?.kind === "star") last.crossesSlash ||= crossesSlash;
    else tokens.push({ kind: "star", crossesSlash });
  };
  let i = 0;
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i] as string;
    i += 1;
    if (c === "*") {
      if (doublestar && pattern[i] === "*") {
        addStar(true);
        i += 1;
      } else {
        addStar(!doublestar);
      }
    } else if (c === "\\" && i < n) {
      tokens.push({ kind: "char", value: pattern[i] as string });
      i += 1;
    } else if (c === "?") {
      tokens.push({ kind: "any" });
    } else if (c === "[") {
      let j = i;
      if (j < n && pattern[j] === "!") j += 1;
      if (j < n && pattern[j] === "]") j += 1;
      while (j < n && pattern[j] !== "]") j += 1;
      if (j >= n) {
        tokens.push({ kind: "char", value: "[" });
      } else {
        let body = pattern.slice(i, j).replace(/\\/g, "\\\\").replace(/\]/g, "\\]");
        i = j + 1;
        if (body.startsWith("!")) body = "^" + body.slice(1);
        else if (body.startsWith("^")) body = "\\" + body;
        tokens.push({ kind: "class", re: new RegExp(`^[${body}]$`) });
      }
    } else {
      tokens.push({ kind: "char", value: c });
    }
  }
  return tokens;
}

/**
 * Whether a backtracking match may be superlinear: a second star that is not the last token. (With one star, or a
 * second one at the end, the first star's backtracking tries each position once and the rest is bounded.)
 */
function mayBacktrack(tokens: Token[]): boolean {
  const stars = tokens.flatMap((t, i) => (t.kind === "star" ? [i] : []));
  return stars.length >= 2 && stars[1]! < tokens.length - 1;
}

const matchesOne = (t: Token, c: string): boolean => (t.kind === "char" ? t.value === c : t.kind === "any" ? true : t.kind === "class" ? t.re.test(c) : false);

/** The automaton of the tokens (state i: token i is next), run over the value in O(value × tokens). */
function automaton(tokens: Token[]): GlobMatcher {
  const m = tokens.length;
  return {
    test(value: string): boolean {
      let current = new Uint8Array(m + 1);
      let next = new Uint8Array(m + 1);
      // A star may match nothing: being before it is being after it too.
      const close = (states: Uint8Array) => {
        for (let i = 0; i < m; i++) if (states[i] && tokens[i]!.kind === "star") states[i + 1] = 1;
      };
      current[0] = 1;
      close(current);
      for (let p = 0; p < value.length; p++) {
        const c = value[p]!;
        next.fill(0);
        let any = false;
        for (let i = 0; i < m; i++) {
          if (!current[i]) continue;
          const t = tokens[i]!;
          const to = t.kind === "star" ? (t.crossesSlash || c !== "/" ? i : -1) : matchesOne(t, c) ? i + 1 : -1;
          if (to < 0) continue;
          next[to] = 1;
          any = true;
        }
        if (!any) return false;
        close(next);
        [current, next] = [next, current];
      }
      return current[m] === 1;
    },
  };
}

export function translateGlob(pattern: string, doublestar: boolean): GlobMatcher {
  const key = `${doublestar ? "1" : "0"}${pattern}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const tokens = tokenize(pattern, doublestar);
  const matcher = mayBacktrack(tokens) ? automaton(tokens) : new RegExp(`^(?:${tokens.map(tokenSource).join("")})$`);
  cache.set(key, matcher);
  return matcher;
}

export function globMatch(value: string, pattern: string, opts: { doublestar?: boolean; ignorecase?: boolean; pathNormalize?: boolean } = {}): boolean {
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
