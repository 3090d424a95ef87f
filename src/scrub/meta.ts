// The `_meta` notes a scrubbed value leaves, exactly as Relay writes them (relay-protocol meta.rs `Remark`,
// `RemarkType` and `original_length`; relay-event-schema processor/chunks.rs `split_chunks`, whose `join_chunks` is
// redact.ts `Joiner`): `{"": {"rem": [["@password:filter", "s", 0, 10]], "len": 32}}`, ranges and lengths in Unicode
// code points.
import { SCRUB_LIMITS } from "../config/limits/privacy";

/** x removed, s substituted, m masked, p pseudonymized (hashed). */
export type RemarkType = "x" | "s" | "m" | "p";
export type Remark = [rule: string, type: RemarkType] | [rule: string, type: RemarkType, start: number, end: number];

/** What one value's meta holds while scrubbing: its remarks and its length before the first change. */
export type ValueMeta = { rem: Remark[]; len: number | undefined };

/**
 * Meta by path segment: a value's own notes and its children's (kept apart: a JSON key may be "" too). A node is
 * also a link in its parent's list of children, in the order they were added (`first`, `last`, `next`), looked up by
 * a scan: most nodes have a few children, and a Map and arrays per node made a third of what scrubbing allocated.
 * Past SCRUB_LIMITS.metaChildrenScanned children a Map indexes them.
 */
export type MetaTree = {
  own: ValueMeta | undefined;
  /** This node's segment under its parent ("" for a root). */
  seg: string;
  first: MetaTree | undefined;
  last: MetaTree | undefined;
  /** The parent's next child. */
  next: MetaTree | undefined;
  size: number;
  index: Map<string, MetaTree> | undefined;
};

// Both made with all their fields at once: objects of one shape from one place, whose shape V8 keeps (a shape that
// objects only reach by adding fields is dropped by a full collection when none is alive, and with it the optimized
// code of the walk that used it).
export function emptyMeta(seg = ""): MetaTree {
  return { own: undefined, seg, first: undefined, last: undefined, next: undefined, size: 0, index: undefined };
}

/** The node of `tree`'s child at `seg`, if there is one. */
export function childMeta(tree: MetaTree, seg: string): MetaTree | undefined {
  if (tree.index !== undefined) return tree.index.get(seg);
  for (let c = tree.first; c !== undefined; c = c.next) if (c.seg === seg) return c;
  return undefined;
}

/** Adds a child at `seg` (made empty unless given), which `tree` has none at yet; returns it. */
export function addChildMeta(tree: MetaTree, seg: string, child: MetaTree = emptyMeta(seg)): MetaTree {
  child.seg = seg;
  if (tree.last === undefined) tree.first = child;
  else tree.last.next = child;
  tree.last = child;
  tree.size++;
  if (tree.index !== undefined) tree.index.set(seg, child);
  else if (tree.size > SCRUB_LIMITS.metaChildrenScanned) {
    const index = new Map<string, MetaTree>();
    for (let c = tree.first; c !== undefined; c = c.next) index.set(c.seg, c);
    tree.index = index;
  }
  return child;
}

export function valueMeta(rem: Remark[], len: number | undefined): ValueMeta {
  return { rem, len };
}

export function isEmptyMeta(tree: MetaTree): boolean {
  return tree.own === undefined && tree.size === 0;
}

export function metaAt(tree: MetaTree, path: readonly string[], create: true): ValueMeta;
export function metaAt(tree: MetaTree, path: readonly string[], create: false): ValueMeta | undefined;
export function metaAt(tree: MetaTree, path: readonly string[], create: boolean): ValueMeta | undefined {
  let node = tree;
  for (const seg of path) {
    let next = childMeta(node, seg);
    if (!next) {
      if (!create) return undefined;
      next = addChildMeta(node, seg);
    }
    node = next;
  }
  if (!node.own && create) node.own = valueMeta([], undefined);
  return node.own;
}

/** A piece of a string being scrubbed: plain text, or a redaction already made (with its rule and type). */
export type Chunk = { text: string } | { text: string; rule: string; type: RemarkType };

export const isRedaction = (c: Chunk): c is { text: string; rule: string; type: RemarkType } => "rule" in c;

/** Code points in `text` (the unit of Relay's ranges). */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** UTF-16 index of the `cp`-th code point. */
function indexOfCodePoint(text: string, cp: number): number {
  let i = 0;
  for (let n = 0; n < cp && i < text.length; n++) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
  }
  return i;
}

/** `split_chunks`: the value cut at the ranged remarks it already carries. */
export function splitChunks(value: string, remarks: readonly Remark[]): Chunk[] {
  const chunks: Chunk[] = [];
  let pos = 0;
  for (const r of remarks) {
    if (r.length !== 4) continue;
    const start = indexOfCodePoint(value, r[2]);
    const end = indexOfCodePoint(value, r[3]);
    if (start < pos || end < start) continue;
    if (start > pos) chunks.push({ text: value.slice(pos, start) });
    chunks.push({ text: value.slice(start, end), rule: r[0], type: r[1] });
    pos = end;
  }
  if (pos < value.length || chunks.length === 0) chunks.push({ text: value.slice(pos) });
  return chunks;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The remarks an event already carries in `_meta` (from an earlier scrub), as Relay keeps them on the values: later
 * rules do not look into what was already redacted, so scrubbing twice changes nothing.
 */
export function seedMeta(existing: unknown): MetaTree {
  const walk = (node: Record<string, unknown>): MetaTree => {
    const out = emptyMeta();
    for (const seg of Object.keys(node)) {
      const child = node[seg];
      if (!isPlainObject(child)) continue;
      if (seg === "") {
        const rem = Array.isArray(child.rem) ? (child.rem as unknown[]).filter(isRemark) : [];
        if (rem.length > 0)
          out.own = valueMeta(
            rem.map((r) => [...r] as Remark),
            typeof child.len === "number" ? child.len : undefined,
          );
      } else {
        const next = walk(child);
        if (!isEmptyMeta(next)) addChildMeta(out, seg, next);
      }
    }
    return out;
  };
  return isPlainObject(existing) ? walk(existing) : emptyMeta();
}

function isRemark(r: unknown): r is Remark {
  return (
    Array.isArray(r) &&
    typeof r[0] === "string" &&
    typeof r[1] === "string" &&
    (r.length === 2 || (r.length === 4 && typeof r[2] === "number" && typeof r[3] === "number"))
  );
}

/** `obj[key] = value` as an own property, also for a key named `__proto__` (which assignment would not create). */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/**
 * Writes the scrubbing notes into an event's `_meta` (which may hold normalization's notes): a value's remarks are
 * the ones the walk ended with (it started from `_meta`'s), an earlier length is kept. A child keyed "" cannot be
 * told from the value's own notes in Relay's format, so its notes are not written.
 */
export function mergeMeta(existing: unknown, tree: MetaTree): Record<string, unknown> {
  const out: Record<string, unknown> = isPlainObject(existing) ? existing : {};
  const own = tree.own;
  if (own) {
    if (Object.hasOwn(out, "") && isPlainObject(out[""])) {
      const prev = out[""] as Record<string, unknown>;
      const merged: Record<string, unknown> = { ...prev, rem: own.rem };
      if (own.len !== undefined && prev.len === undefined) merged.len = own.len;
      if (own.rem.length === 0) delete merged.rem;
      if (Object.keys(merged).length > 0) out[""] = merged;
      else delete out[""];
    } else if (own.rem.length > 0) out[""] = own.len === undefined ? { rem: own.rem } : { rem: own.rem, len: own.len };
    else if (own.len !== undefined) out[""] = { len: own.len };
    else delete out[""];
  }
  for (let c = tree.first; c !== undefined; c = c.next) {
    const seg = c.seg;
    if (seg === "") continue;
    setOwn(out, seg, mergeMeta(Object.hasOwn(out, seg) ? out[seg] : undefined, c));
  }
  return out;
}
