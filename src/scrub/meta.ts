// The `_meta` notes a scrubbed value leaves, exactly as Relay writes them (relay-protocol meta.rs `Remark`,
// `RemarkType` and `original_length`; relay-event-schema processor/chunks.rs `split_chunks`/`join_chunks`):
// `{"": {"rem": [["@password:filter", "s", 0, 10]], "len": 32}}`, ranges and lengths in Unicode code points.

/** x removed, s substituted, m masked, p pseudonymized (hashed). */
export type RemarkType = "x" | "s" | "m" | "p";
export type Remark = [rule: string, type: RemarkType] | [rule: string, type: RemarkType, start: number, end: number];

/** What one value's meta holds while scrubbing: its remarks and its length before the first change. */
export type ValueMeta = { rem: Remark[]; len?: number };

/** A tree of meta by path segment; `""` holds the node's own ValueMeta. */
export type MetaTree = { [segment: string]: MetaTree | ValueMeta | undefined };

export function metaAt(tree: MetaTree, path: readonly string[], create: true): ValueMeta;
export function metaAt(tree: MetaTree, path: readonly string[], create: false): ValueMeta | undefined;
export function metaAt(tree: MetaTree, path: readonly string[], create: boolean): ValueMeta | undefined {
  let node = tree;
  for (const seg of path) {
    let next = Object.hasOwn(node, seg) ? (node[seg] as MetaTree | undefined) : undefined;
    if (!next) {
      if (!create) return undefined;
      next = Object.create(null) as MetaTree;
      Object.defineProperty(node, seg, { value: next, enumerable: true, writable: true, configurable: true });
    }
    node = next;
  }
  let own = node[""] as ValueMeta | undefined;
  if (!own && create) node[""] = own = { rem: [] };
  return own;
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

/** `join_chunks`: the new value and its ranged remarks. */
export function joinChunks(chunks: readonly Chunk[]): { value: string; remarks: Remark[] } {
  let value = "";
  const remarks: Remark[] = [];
  let pos = 0;
  for (const c of chunks) {
    const next = pos + codePoints(c.text);
    value += c.text;
    if (isRedaction(c)) remarks.push([c.rule, c.type, pos, next]);
    pos = next;
  }
  return { value, remarks };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Merges the scrubbing notes into an event's existing `_meta` (from normalization): remarks are added, an earlier length kept. */
export function mergeMeta(existing: unknown, tree: MetaTree): Record<string, unknown> {
  const out: Record<string, unknown> = isPlainObject(existing) ? existing : {};
  for (const seg of Object.keys(tree)) {
    const child = tree[seg];
    if (!child) continue;
    if (seg === "") {
      const own = child as ValueMeta;
      const prev = isPlainObject(out[""]) ? (out[""] as Record<string, unknown>) : {};
      const rem = Array.isArray(prev.rem) ? [...(prev.rem as unknown[]), ...own.rem] : own.rem;
      const merged: Record<string, unknown> = { ...prev, rem };
      if (own.len !== undefined && prev.len === undefined) merged.len = own.len;
      if (rem.length === 0) delete merged.rem;
      out[""] = merged;
    } else {
      Object.defineProperty(out, seg, { value: mergeMeta(out[seg], child as MetaTree), enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
}
