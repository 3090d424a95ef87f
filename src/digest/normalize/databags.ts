// Databag trimming, the last step of normalization: relay-event-normalization trimming.rs `TrimmingProcessor` over
// the bags relay-event-schema's protocol declares (limits.ts DATABAGS). Inside a bag every value costs its estimated
// JSON bytes plus one (Relay's `estimate_size_flat`: a string its UTF-8 bytes and quotes, a container its brackets,
// keys nothing); once a bag has none left, its remaining keys and items are dropped, and a string is cut to what is
// left of the innermost bag. A container on a bag's last level becomes its JSON text. What was cut leaves Relay's
// notes in `_meta`: a container its original length, a string the `!limit` remark over its "..." and its length.
//
// Deviations: objects are cut in the order their keys were sent (Relay's objects are sorted maps, so it keeps the
// first keys in sorted order); a number costs the characters JavaScript prints it with (Rust prints 1e300 with all
// its digits); a request pair whose key does not fit ends its list (Relay cuts both strings), and a list left empty
// is removed, as normalization removes an empty one; a context's `type` is its kind, never cut (as Relay writes a
// known context's type from its schema).
import { charCount, isObject, setOwn, type JsonObject } from "./json";
import { DATABAGS, MAX_CONTEXT_LINES, type BagLimit } from "./limits";
import { trimString } from "./strings";

type OpenBag = { limit: BagLimit; at: number; remaining: number };

const DROP = Symbol("drop");
type Kept = unknown | typeof DROP;

/** UTF-8 bytes of `text`: counted in place for short strings, where the native call costs more than the loop. */
function utf8Bytes(text: string): number {
  if (text.length > 64) return Buffer.byteLength(text);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4; // a surrogate pair: one code point of four bytes
      i++;
    } else n += 3; // a lone surrogate is written as U+FFFD, three bytes, as Buffer.byteLength counts it
  }
  return n;
}

/** Relay's `estimate_size_flat` of a value already trimmed: what it adds to every bag it is in, before the +1. */
function flatSize(value: unknown): number {
  if (typeof value === "string") return utf8Bytes(value) + 2;
  if (typeof value === "number") return String(value).length;
  if (value === true) return 4;
  if (value === false) return 5;
  if (value === null || value === undefined) return 4;
  return 2;
}

/** Code points of `text`, counted only as far as `atLeast` (a string cut to a bag needs no more). */
function charsUpTo(text: string, atLeast: number): number {
  if (text.length <= atLeast) return text.length; // UTF-16 units bound the code points from above
  let n = 0;
  for (const _ of text) if (++n > atLeast) return n;
  return n;
}

/**
 * What a bag's whole value must stay within for trimming to change nothing in it or in the bags it opens inside: the
 * smallest byte limit among them, and the shallowest depth (an inner bag's counted from the level it opens at).
 */
function quickLimits(limit: BagLimit): { bytes: number; depth: number } {
  let cached = QUICK.get(limit);
  if (cached) return cached;
  let bytes = limit.maxBytes;
  let depth = limit.maxDepth;
  for (const inner of [limit.each, ...Object.values(limit.fields ?? {})]) {
    if (!inner) continue;
    const q = quickLimits(inner);
    bytes = Math.min(bytes, q.bytes);
    depth = Math.min(depth, q.depth + 1);
  }
  cached = { bytes, depth };
  QUICK.set(limit, cached);
  return cached;
}
const QUICK = new WeakMap<BagLimit, { bytes: number; depth: number }>();

/**
 * How much a bag's estimate can exceed the JSON text it came from, per byte: strings, booleans, null and brackets cost
 * at most their text (keys nothing), but a number is charged as JavaScript prints it, up to 25 characters
 * ("-0.0000012345678901234567") from as little as one byte of JSON ("1e20" prints as 21 digits).
 */
const MAX_ESTIMATE_PER_BYTE = 25;

/** At least the characters JavaScript prints `value` with (25 at most), without printing it. */
function numberChars(value: number): number {
  if (!Number.isInteger(value) || Math.abs(value) >= 1e15) return MAX_ESTIMATE_PER_BYTE;
  let n = value < 0 ? 2 : 1;
  for (let v = Math.abs(value); v >= 10; v /= 10) n++;
  return n;
}

/**
 * The common case, checked before the walk that trims: a value whose every part is within `depthLeft` levels and
 * whose estimate, every part's cost as the walk counts it (numbers at most), is within `budget` cannot be cut, since a
 * bag's remaining bytes at any value are at least what the rest of the value costs. Returns the budget left, or -1.
 */
function fits(value: unknown, depthLeft: number, budget: number): number {
  if (depthLeft < 1) return -1;
  if (typeof value === "string") budget -= utf8Bytes(value) + 3;
  else if (typeof value === "number") budget -= numberChars(value) + 1;
  else if (Array.isArray(value)) {
    // Every item costs two bytes at least: a long array cannot fit, and need not be walked to know it.
    if (depthLeft < 2 || value.length * 2 > budget) return -1;
    for (let i = 0; i < value.length && budget >= 0; i++) budget = fits(value[i], depthLeft - 1, budget);
    budget -= 3;
  } else if (isObject(value)) {
    if (depthLeft < 2) return -1;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      budget = fits(value[key], depthLeft - 1, budget);
      if (budget < 0) return -1;
    }
    budget -= 3;
  } else budget -= 6;
  return budget < 0 ? -1 : budget;
}

class Trimmer {
  private readonly bags: OpenBag[] = [];
  /** The path from the event's root to the value in hand, for its `_meta` notes (pushed and popped as the walk goes). */
  readonly path: string[] = [];

  constructor(private readonly event: JsonObject) {}

  /** Trims `parent[key]` as a bag of `limit`; `parent` is at `this.path`. */
  bag(parent: JsonObject, key: string, limit: BagLimit): void {
    if (!Object.hasOwn(parent, key)) return;
    const quick = quickLimits(limit);
    if (fits(parent[key], quick.depth, quick.bytes) >= 0) return;
    this.path.push(key);
    const kept = this.process(parent[key], 0, limit);
    this.path.pop();
    if (kept === DROP) delete parent[key];
    else if (kept !== parent[key]) parent[key] = kept;
  }

  /** An array's items cut to `max` from one end (`fromEnd`: the last ones kept), its original length noted. */
  lines(parent: JsonObject, key: string, max: number, fromEnd: boolean): void {
    const lines = parent[key];
    if (!Array.isArray(lines) || lines.length <= max) return;
    this.path.push(key);
    this.note({ len: lines.length });
    this.path.pop();
    parent[key] = fromEnd ? lines.slice(lines.length - max) : lines.slice(0, max);
  }

  private remainingBytes(): number {
    const bags = this.bags;
    if (bags.length === 1) return bags[0]!.remaining;
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < bags.length; i++) if (bags[i]!.remaining < min) min = bags[i]!.remaining;
    return min;
  }

  private remainingDepth(depth: number): number {
    const bags = this.bags;
    if (bags.length === 1) return bags[0]!.limit.maxDepth - (depth - bags[0]!.at);
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < bags.length; i++) {
      const left = bags[i]!.limit.maxDepth - (depth - bags[i]!.at);
      if (left < min) min = left;
    }
    return min;
  }

  /** Relay's `before_process`, the value's own processing and `after_process`, at `depth` below the outermost bag. */
  private process(value: unknown, depth: number, opens: BagLimit | undefined): Kept {
    if (opens) this.bags.push({ limit: opens, at: depth, remaining: opens.maxBytes });
    let kept: Kept = value;
    if (this.bags.length > 0) {
      const depthLeft = this.remainingDepth(depth);
      if (this.remainingBytes() <= 0 || depthLeft <= 0) kept = DROP;
      else if (typeof value === "string") kept = this.cutString(value);
      else if (Array.isArray(value) || isObject(value)) {
        kept = depthLeft === 1 ? this.cutString(JSON.stringify(value)) : this.container(value, depth, opens);
      }
    }
    if (opens) this.bags.pop();
    const cost = (kept === DROP ? 0 : flatSize(kept)) + 1;
    const bags = this.bags;
    for (let i = 0; i < bags.length; i++) bags[i]!.remaining = bags[i]!.remaining > cost ? bags[i]!.remaining - cost : 0;
    return kept;
  }

  /** Whether a [key, value] pair fits whole, or with its value cut to "..." at least (Relay's pairs are typed tuples). */
  private pairFits(pair: unknown): boolean {
    const key = Array.isArray(pair) && typeof pair[0] === "string" ? pair[0] : "";
    // The pair's brackets (3), its key (quotes and comma: 3), and a value of "..." at least (6).
    return this.remainingBytes() >= utf8Bytes(key) + 12;
  }

  /** Relay's `trim_string` to what is left of the innermost bag. */
  private cutString(value: string): string {
    const max = this.bags[this.bags.length - 1]!.remaining;
    const chars = charsUpTo(value, max);
    if (chars <= max) return value;
    const cut = trimString(value, max);
    const kept = max > 3 ? max - 3 : 0;
    this.note({ rem: [["!limit", "s", kept, kept + 3]], len: value.length === chars ? chars : charCount(value) });
    return cut;
  }

  private container(value: unknown[] | JsonObject, depth: number, opened: BagLimit | undefined): Kept {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        if (this.remainingBytes() <= 0 || (opened?.pairs && !this.pairFits(value[i]))) {
          this.note({ len: value.length });
          value.length = i;
          // A pair list left empty is removed, as normalization removes an empty one.
          if (i === 0 && opened?.pairs) return DROP;
          break;
        }
        this.path.push(String(i));
        const kept = this.process(value[i], depth + 1, opened?.each);
        this.path.pop();
        if (kept === DROP) value[i] = null;
        else if (kept !== value[i]) value[i] = kept;
      }
      return value;
    }
    const keys = Object.keys(value);
    // A context's `type` is its kind, not data (Relay writes a known context's from its schema): never charged or cut.
    const type = opened?.keepsType === true && Object.hasOwn(value, "type");
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (type && key === "type") continue;
      if (this.remainingBytes() <= 0) {
        this.note({ len: keys.length - (type ? 1 : 0) });
        const out: JsonObject = {};
        for (let j = 0; j < i; j++) {
          const k = keys[j]!;
          if (!Object.hasOwn(value, k)) continue;
          if (k === "__proto__") setOwn(out, k, value[k]);
          else out[k] = value[k];
        }
        if (type) out.type = value.type;
        return out;
      }
      this.path.push(key);
      const kept = this.process(value[key], depth + 1, childBag(opened, key));
      this.path.pop();
      if (kept === DROP) delete value[key];
      else if (kept !== value[key]) value[key] = kept; // an own key already: assignment keeps it one, "__proto__" too
    }
    return value;
  }

  /** Writes Relay's note for the value at `this.path` into the event's `_meta` (kept with whatever is there). */
  private note(note: { len: number; rem?: unknown[] }): void {
    if (!Object.hasOwn(this.event, "_meta") || !isObject(this.event._meta)) this.event._meta = {};
    let node = this.event._meta as JsonObject;
    for (const seg of [...this.path, ""]) {
      // Own keys only: a path step named "__proto__" is data, and must not reach Object.prototype.
      const next = Object.hasOwn(node, seg) ? node[seg] : undefined;
      if (isObject(next)) node = next;
      else {
        const made: JsonObject = {};
        setOwn(node, seg, made);
        node = made;
      }
    }
    if (node.len === undefined) node.len = note.len;
    if (!note.rem) return;
    // The same cut made again (normalizing stored output) notes nothing new.
    const rem = Array.isArray(node.rem) ? node.rem : [];
    const fresh = note.rem.filter((r) => !rem.some((old) => JSON.stringify(old) === JSON.stringify(r)));
    if (fresh.length > 0 || !Array.isArray(node.rem)) node.rem = [...rem, ...fresh];
  }
}

/** The bag a child at `key` of a bag opened with `opened` opens of its own, if any. */
function childBag(opened: BagLimit | undefined, key: string): BagLimit | undefined {
  if (opened === undefined) return undefined;
  return opened.fields !== undefined && Object.hasOwn(opened.fields, key) ? opened.fields[key] : opened.each;
}

const REQUEST_BAGS = Object.entries(DATABAGS.request);

/** `owner[list].values`, or none. */
function valuesOf(owner: JsonObject, list: string): unknown[] {
  const wrapper = owner[list];
  return isObject(wrapper) && Array.isArray(wrapper.values) ? wrapper.values : [];
}

/** Frames' vars and source context of `owner`'s `stacktrace` and `raw_stacktrace`; `owner` is at `t.path`. */
function trimStacktraces(t: Trimmer, owner: JsonObject): void {
  for (const key of ["stacktrace", "raw_stacktrace"]) {
    const st = owner[key];
    if (!isObject(st) || !Array.isArray(st.frames)) continue;
    t.path.push(key, "frames");
    for (let i = 0; i < st.frames.length; i++) {
      const frame: unknown = st.frames[i];
      if (!isObject(frame)) continue;
      if (frame.vars === undefined && frame.pre_context === undefined && frame.post_context === undefined) continue;
      t.path.push(String(i));
      t.bag(frame, "vars", DATABAGS.frameVars);
      t.lines(frame, "pre_context", MAX_CONTEXT_LINES, true);
      t.lines(frame, "post_context", MAX_CONTEXT_LINES, false);
      t.path.pop();
    }
    t.path.length -= 2;
  }
}

/** Each object of `event[list].values` in turn at `t.path`, given to `visit`. */
function eachValue(t: Trimmer, event: JsonObject, list: string, visit: (t: Trimmer, item: JsonObject) => void): void {
  const values = valuesOf(event, list);
  if (values.length === 0) return;
  t.path.push(list, "values");
  for (let i = 0; i < values.length; i++) {
    const item = values[i];
    if (!isObject(item)) continue;
    t.path.push(String(i));
    visit(t, item);
    t.path.pop();
  }
  t.path.length -= 2;
}

const crumbData = (t: Trimmer, crumb: JsonObject) => {
  if (crumb.data !== undefined) t.bag(crumb, "data", DATABAGS.breadcrumbData);
};
const exceptionBags = (t: Trimmer, exc: JsonObject) => {
  if (isObject(exc.mechanism) && exc.mechanism.data !== undefined) {
    t.path.push("mechanism");
    t.bag(exc.mechanism, "data", DATABAGS.mechanismData);
    t.path.pop();
  }
  trimStacktraces(t, exc);
};

/**
 * Trims the normalized event's databags (DATABAGS) and frames' source context (MAX_CONTEXT_LINES) in place. `bytes`,
 * the payload's size when known, bounds every bag's estimate (MAX_ESTIMATE_PER_BYTE times it): a bag with no depth
 * limit (the spans) that such a payload cannot fill is not walked.
 */
export function trimDatabags(event: JsonObject, bytes?: number): void {
  const t = new Trimmer(event);
  t.bag(event, "extra", DATABAGS.extra);
  t.bag(event, "modules", DATABAGS.modules);
  eachValue(t, event, "breadcrumbs", crumbData);
  if (isObject(event.logentry)) {
    t.path.push("logentry");
    t.bag(event.logentry, "params", DATABAGS.logentryParams);
    t.path.pop();
  }
  eachValue(t, event, "exception", exceptionBags);
  eachValue(t, event, "threads", trimStacktraces);
  trimStacktraces(t, event);
  if (isObject(event.request)) {
    t.path.push("request");
    for (const [key, limit] of REQUEST_BAGS) t.bag(event.request, key, limit);
    t.path.pop();
  }
  if (isObject(event.contexts)) {
    const contexts = event.contexts;
    t.path.push("contexts");
    for (const key of Object.keys(contexts)) {
      const context = contexts[key];
      const type = isObject(context) && typeof context.type === "string" ? context.type : key;
      t.bag(contexts, key, Object.hasOwn(DATABAGS.contextOf, type) ? DATABAGS.contextOf[type]! : DATABAGS.context);
    }
    t.path.pop();
  }
  if (bytes === undefined || bytes * MAX_ESTIMATE_PER_BYTE > DATABAGS.spans.maxBytes) t.bag(event, "spans", DATABAGS.spans);
}
