// Relay's selector language (relay-pii src/selector.pest and selector.rs): which values a rule applies to.
// `$string`, `$http.headers.x-custom`, `extra.'my.key'`, `**`, `*`, `&&` (or `&`), `||` (or `|`), `!` (or `~`) and
// parentheses. A path selector matches the end of the value's path (`user.extra` matches `.user.extra` and
// `.foo.user.extra`), walking both from the innermost item outwards, as `SelectorSpec::matches_path` does.

/** Relay's `ValueType` (relay-event-schema processor/attrs.rs), as bits: a state may carry several. */
export const VT = {
  string: 1 << 0,
  binary: 1 << 1,
  number: 1 << 2,
  boolean: 1 << 3,
  datetime: 1 << 4,
  array: 1 << 5,
  object: 1 << 6,
  event: 1 << 7,
  attachments: 1 << 8,
  replay: 1 << 9,
  exception: 1 << 10,
  stacktrace: 1 << 11,
  frame: 1 << 12,
  request: 1 << 13,
  user: 1 << 14,
  logentry: 1 << 15,
  message: 1 << 16,
  thread: 1 << 17,
  breadcrumb: 1 << 18,
  span: 1 << 19,
  minidump: 1 << 20,
  heap_memory: 1 << 21,
  stack_memory: 1 << 22,
  sdk: 1 << 23,
  /** Relay's ValueType::OurLog, `$log` in selectors (structured logs, issue 19). */
  log: 1 << 24,
} as const;

/** `$name` in selectors, with Relay's aliases (`$error`, `$http`, `$list`, `$bool`, `$sdk`). */
const TYPE_NAMES: Record<string, number> = {
  ...VT,
  bool: VT.boolean,
  list: VT.array,
  error: VT.exception,
  http: VT.request,
};

/** Basic types: never part of a specific path under pii=maybe (selector.rs `matches_state`). */
const BASIC_TYPES = VT.string | VT.binary | VT.number | VT.boolean | VT.datetime | VT.array | VT.object;

export type PathItem =
  | { kind: "type"; type: number }
  | { kind: "index"; index: number }
  | { kind: "key"; key: string }
  | { kind: "wildcard" }
  | { kind: "deep" };

export type Selector =
  | { kind: "and"; items: Selector[] }
  | { kind: "or"; items: Selector[] }
  | { kind: "not"; inner: Selector }
  | { kind: "path"; items: PathItem[] };

/** Relay's `Pii`: whether a field may hold personal data: "true", "maybe" (only specific selectors) or "false". */
export type Pii = 0 | 1 | 2;
export const PII_FALSE: Pii = 0;
export const PII_MAYBE: Pii = 1;
export const PII_TRUE: Pii = 2;

/** One step of the path being scrubbed, innermost first through `parent` (Relay's `ProcessingState`). */
export interface State {
  readonly parent: State | null;
  /** Lower-cased key, or null for an index or the root; undefined until `keyOf` works it out from `rawKey`. */
  key: string | null | undefined;
  /** The key as in the data, when `key` is left to `keyOf`. */
  readonly rawKey?: string | null;
  readonly index: number;
  readonly types: number;
  readonly pii: Pii;
  readonly depth: number;
}

export class SelectorError extends Error {}

const lowered = new Map<string, string>();

/** The state's key in lower case, worked out on first use (most values are never asked). */
export function keyOf(state: State): string | null {
  let key = state.key;
  if (key === undefined) {
    const raw = state.rawKey ?? null;
    if (raw === null) key = null;
    else {
      key = lowered.get(raw);
      if (key === undefined) {
        key = raw.toLowerCase();
        if (lowered.size > 4096) lowered.clear();
        lowered.set(raw, key);
      }
    }
    state.key = key;
  }
  return key;
}

/** Parses a selector with Relay's legacy names (`freeform`, `email`, `sensitive`, `text`, `databag`, `container`). */
export function parseSelector(text: string): Selector {
  if (text === "freeform" || text === "email" || text === "sensitive" || text === "text") return { kind: "path", items: [{ kind: "type", type: VT.string }] };
  if (text === "databag" || text === "container") return { kind: "path", items: [{ kind: "type", type: VT.object }] };
  return parseNonLegacy(text);
}

/** `SelectorSpec::parse_non_legacy`: the grammar of selector.pest, spaces allowed between tokens. */
export function parseNonLegacy(text: string): Selector {
  let pos = 0;
  const fail = (what: string): never => {
    throw new SelectorError(`invalid selector at position ${pos + 1}: expected ${what}`);
  };
  const skip = () => {
    while (text[pos] === " ") pos++;
  };
  const or = (): Selector => {
    const items = [and()];
    for (skip(); text[pos] === "|"; skip()) {
      pos += text[pos + 1] === "|" ? 2 : 1;
      items.push(and());
    }
    return items.length === 1 ? items[0]! : { kind: "or", items };
  };
  const and = (): Selector => {
    const items = [maybeNot()];
    for (skip(); text[pos] === "&"; skip()) {
      pos += text[pos + 1] === "&" ? 2 : 1;
      items.push(maybeNot());
    }
    return items.length === 1 ? items[0]! : { kind: "and", items };
  };
  const maybeNot = (): Selector => {
    skip();
    if (text[pos] === "!" || text[pos] === "~") {
      pos++;
      return { kind: "not", inner: parenOrPath() };
    }
    return parenOrPath();
  };
  const parenOrPath = (): Selector => {
    skip();
    if (text[pos] === "(") {
      pos++;
      const inner = or();
      skip();
      if (text[pos] !== ")") fail("')'");
      pos++;
      return inner;
    }
    return path();
  };
  const path = (): Selector => {
    const items: PathItem[] = [pathItem()];
    for (skip(); text[pos] === "."; skip()) {
      pos++;
      items.push(pathItem());
    }
    if (items.filter((i) => i.kind === "deep").length > 1) throw new SelectorError("deep wildcard used more than once");
    if (items.length === 1 && items[0]!.kind === "wildcard") throw new SelectorError("wildcard must be part of a path");
    return { kind: "path", items };
  };
  const pathItem = (): PathItem => {
    skip();
    const c = text[pos];
    if (c === "$") {
      const m = /^[a-z_]+/.exec(text.slice(pos + 1));
      if (!m) fail("a type name after '$'");
      const type = TYPE_NAMES[m![0]];
      if (type === undefined) throw new SelectorError(`unknown value type $${m![0]}`);
      pos += 1 + m![0].length;
      return { kind: "type", type };
    }
    if (c === "*") {
      if (text[pos + 1] === "*") {
        pos += 2;
        return { kind: "deep" };
      }
      pos++;
      return { kind: "wildcard" };
    }
    if (c === "'") {
      let key = "";
      pos++;
      for (;;) {
        if (pos >= text.length) fail("a closing quote");
        if (text[pos] === "'") {
          if (text[pos + 1] === "'") {
            key += "'";
            pos += 2;
            continue;
          }
          break;
        }
        key += text[pos++];
      }
      if (key === "") fail("a quoted key");
      pos++;
      return { kind: "key", key };
    }
    const digits = /^[0-9]+/.exec(text.slice(pos));
    if (digits) {
      pos += digits[0].length;
      return { kind: "index", index: Number(digits[0]) };
    }
    const key = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(pos));
    if (!key) fail("a key, index, type or wildcard");
    pos += key![0].length;
    return { kind: "key", key: key![0] };
  };
  const selector = or();
  skip();
  if (pos !== text.length) fail("an operator or the end");
  return lowerKeys(selector);
}

/** Keys compare case-insensitively (`matches_state`): lower-case them once here. */
function lowerKeys(s: Selector): Selector {
  if (s.kind === "path") return { kind: "path", items: s.items.map((i) => (i.kind === "key" ? { kind: "key", key: i.key.toLowerCase() } : i)) };
  if (s.kind === "not") return { kind: "not", inner: lowerKeys(s.inner) };
  return { kind: s.kind, items: s.items.map(lowerKeys) };
}

function itemMatches(item: PathItem, pii: Pii, i: number, state: State): boolean {
  switch (item.kind) {
    case "wildcard":
      return true;
    case "deep":
      return pii === PII_TRUE;
    case "type":
      if ((state.types & item.type) === 0) return false;
      if (pii === PII_TRUE) return true;
      return (item.type & BASIC_TYPES) === 0 && i === 0;
    case "index":
      return keyOf(state) === null && state.parent !== null && state.index === item.index;
    case "key":
      return keyOf(state) === item.key;
  }
}

/**
 * Whether the selector can select only values with pii=true: every way it could match has an item that never matches
 * under pii=maybe (`itemMatches`: a deep wildcard, a basic type, a type other than first). Conservative: `!` never is.
 */
export function selectsOnlyPiiTrue(s: Selector): boolean {
  switch (s.kind) {
    case "path":
      return s.items.some((item, i) => item.kind === "deep" || (item.kind === "type" && ((item.type & BASIC_TYPES) !== 0 || i !== 0)));
    case "and":
      return s.items.some(selectsOnlyPiiTrue);
    case "or":
      return s.items.every(selectsOnlyPiiTrue);
    case "not":
      return false;
  }
}

/** `SelectorSpec::matches_path`: whether the selector selects the value at `state`. */
export function matches(selector: Selector, state: State): boolean {
  if (state.pii === PII_FALSE) return false;
  switch (selector.kind) {
    case "and":
      return selector.items.every((s) => matches(s, state));
    case "or":
      return selector.items.some((s) => matches(s, state));
    case "not":
      return !matches(selector.inner, state);
    case "path":
      return pathMatches(selector.items, state);
  }
}

/** Reused by the slow path (the walk is single-threaded and this never recurses). */
const SCRATCH: State[] = [];

function pathMatches(items: PathItem[], state: State): boolean {
  if (items.length > state.depth) return false;
  const pii = state.pii;
  let s: State | null = state;
  let i = items.length - 1;
  let deep = false;
  // Fast path: from the innermost state outwards while the selector has items, up to a deep wildcard.
  for (; s !== null; s = s.parent) {
    if (i < 0) break;
    const item = items[i]!;
    if (!itemMatches(item, pii, i, s)) return false;
    i--;
    if (item.kind === "deep") {
      deep = true;
      s = s.parent;
      break;
    }
  }
  if (!deep) return true;
  // Slow path: the items before the deep wildcard must match a run of states ending anywhere above it.
  if (i < 0) return s !== null;
  const remaining = SCRATCH;
  remaining.length = 0;
  for (; s !== null; s = s.parent) remaining.push(s);
  remaining.reverse(); // root first
  let at = 0;
  while (at < remaining.length && !itemMatches(items[0]!, pii, 0, remaining[at]!)) at++;
  if (at === remaining.length) return false;
  let j = 1;
  for (at++; at < remaining.length && j <= i; at++, j++) {
    if (!itemMatches(items[j]!, pii, j, remaining[at]!)) return false;
  }
  return j > i;
}

/** Relay's `Display` for selectors, used to name the legacy applications. */
export function selectorToString(s: Selector): string {
  switch (s.kind) {
    case "and":
      return s.items.map((x) => (x.kind === "or" ? `(${selectorToString(x)})` : selectorToString(x))).join(" && ");
    case "or":
      return s.items.map(selectorToString).join(" || ");
    case "not":
      return s.inner.kind === "path" ? `!${selectorToString(s.inner)}` : `!(${selectorToString(s.inner)})`;
    case "path":
      return s.items
        .map((i) => {
          if (i.kind === "type") return `$${Object.entries(VT).find(([, v]) => v === i.type)?.[0] ?? "?"}`;
          if (i.kind === "index") return String(i.index);
          if (i.kind === "wildcard") return "*";
          if (i.kind === "deep") return "**";
          return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(i.key) ? i.key : `'${i.key.replaceAll("'", "''")}'`;
        })
        .join(".");
  }
}

/**
 * A selector made into a function once, for the walk: the same answers as `matches`, with `||` lists indexed by
 * their last key (the default cookie list alone is 47 paths, tried on every value otherwise).
 */
export function compileSelector(selector: Selector): (state: State) => boolean {
  const inner = compileInner(selector);
  return (state) => state.pii !== PII_FALSE && inner(state);
}

function compileInner(s: Selector): (state: State) => boolean {
  switch (s.kind) {
    case "and": {
      const parts = s.items.map(compileInner);
      return (state) => parts.every((p) => p(state));
    }
    case "not": {
      const inner = compileInner(s.inner);
      return (state) => !inner(state);
    }
    case "path": {
      const items = s.items;
      const [first, second] = items;
      // `$string`, `$object`...: a bit test (basic types never match under pii=maybe, other types do at i = 0).
      if (items.length === 1 && first!.kind === "type") {
        const t = first!.type;
        const basic = (t & BASIC_TYPES) !== 0;
        return (state) => state.depth >= 1 && (state.types & t) !== 0 && (state.pii === PII_TRUE || !basic);
      }
      // `debug_meta.**`: some state above this one has the key (pii=true only, as `**` is not specific).
      if (items.length === 2 && first!.kind === "key" && second!.kind === "deep") {
        const key = first!.key;
        return (state) => {
          if (state.pii !== PII_TRUE || state.depth < 2) return false;
          for (let s = state.parent; s !== null; s = s.parent) if (keyOf(s) === key) return true;
          return false;
        };
      }
      return (state) => pathMatches(items, state);
    }
    case "or": {
      const byKey = new Map<string, ((state: State) => boolean)[]>();
      const rest: ((state: State) => boolean)[] = [];
      for (const item of s.items) {
        const last = item.kind === "path" ? item.items[item.items.length - 1] : undefined;
        const fn = compileInner(item);
        if (last?.kind === "key") {
          const list = byKey.get(last.key);
          if (list) list.push(fn);
          else byKey.set(last.key, [fn]);
        } else rest.push(fn);
      }
      return (state) => {
        const key = keyOf(state);
        if (key !== null) {
          const list = byKey.get(key);
          if (list && list.some((p) => p(state))) return true;
        }
        return rest.some((p) => p(state));
      };
    }
  }
}
