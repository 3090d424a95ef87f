// The walk over an event (relay-pii processor.rs `PiiProcessor` driven by relay-event-schema's `process_value`):
// every value is visited with its path state (key or index, value types, pii attribute); each application whose
// selector matches applies its rules; strings are scrubbed in chunks, other values can only be deleted. Pair lists are
// seen as objects (`request.headers.authorization`, utils.rs `process_pairlist`), two-item arrays as key and value
// (`process_array`), file paths keep their basename (`process_native_image_path`), and an IP address made invalid
// moves to `user.id` (`process_user`). Notes go into a meta tree by the value's place in the JSON.
import { isIP } from "node:net";
import { SCRUB_LIMITS } from "../config/limits/privacy";
import type { CompiledConfig } from "./compiled";
import { addChildMeta, childMeta, metaAt, valueMeta, type MetaTree, type Remark, type ValueMeta } from "./meta";
import { contextNode, type Field, type Node } from "./pii-fields";
import { applyRule, DELETE, working, type Working } from "./redact";
import { PII_FALSE, PII_MAYBE, PII_TRUE, VT, type Pii } from "./selector";

type S = { parent: S | null; key: string | null | undefined; rawKey: string | null; index: number; pii: Pii; types: number; depth: number };

/**
 * The walk's states by depth, reused: the walk is depth-first, so only the current path is ever alive. `metas[k]` is
 * the meta tree's node at the first k segments of `path` (undefined while there is none), kept as the walk goes down,
 * so that a value's notes are found without looking its whole path up again.
 */
type Walk = { config: CompiledConfig; meta: MetaTree; metas: (MetaTree | undefined)[]; path: string[]; states: S[]; working: Working };

/** Shared, never written: a value without remarks yet (a change gives the value a new list). */
const NO_REMARKS: Remark[] = [];

const INDEX_SEGMENTS = Array.from({ length: 256 }, (_, i) => String(i));
const segment = (slot: string | number): string => (typeof slot === "string" ? slot : slot < 256 ? INDEX_SEGMENTS[slot]! : String(slot));

function jsonTypes(value: unknown): number {
  switch (typeof value) {
    case "string":
      return VT.string;
    case "number":
      return VT.number;
    case "boolean":
      return VT.boolean;
    case "object":
      return value === null ? 0 : Array.isArray(value) ? VT.array : VT.object;
    default:
      return 0;
  }
}

function typesOf(node: Node | undefined, value: unknown): number {
  if (!node) return jsonTypes(value);
  switch (node.kind) {
    case "pairs":
      return Array.isArray(value) ? VT.object : jsonTypes(value);
    case "struct":
      return typeof value === "object" && value !== null && !Array.isArray(value) ? node.types : jsonTypes(value);
    case "string":
      return typeof value === "string" ? node.types : jsonTypes(value);
    default:
      return jsonTypes(value);
  }
}

function enter(walk: Walk, parent: S, key: string | null, index: number, pii: Pii, types: number): S {
  const depth = parent.depth + 1;
  let s = walk.states[depth];
  if (!s) walk.states[depth] = s = { parent, key: null, rawKey: null, index: -1, pii, types, depth };
  s.parent = parent;
  s.key = key === null ? null : undefined; // lower-cased by the selectors when they ask (selector.ts `keyOf`)
  s.rawKey = key;
  s.index = index;
  s.pii = pii;
  s.types = types;
  return s;
}

/** Goes down to `segment` of the path, with the meta tree's node there. */
function descend(walk: Walk, segment: string): void {
  const depth = walk.path.push(segment);
  const parent = walk.metas[depth - 1];
  walk.metas[depth] = parent === undefined ? undefined : childMeta(parent, segment);
}

/** The current value's own notes, made (with the nodes above them) when there are none yet. */
function ownMeta(walk: Walk): ValueMeta {
  let node = walk.meta;
  for (let i = 0; i < walk.path.length; i++) {
    let next = walk.metas[i + 1];
    if (next === undefined) {
      const seg = walk.path[i]!;
      next = childMeta(node, seg) ?? addChildMeta(node, seg);
      walk.metas[i + 1] = next;
    }
    node = next;
  }
  return (node.own ??= valueMeta([], undefined));
}

/** `apply_all_rules`: DELETE, or the string after every matching rule (unchanged for non-strings). */
function applyAll(walk: Walk, state: S, value: string | null): typeof DELETE | string | null {
  if (state.pii === PII_FALSE) return value;
  let w: Working | null = null;
  if (value !== null) {
    const prev = walk.metas[walk.path.length]?.own;
    w = walk.working;
    w.value = value;
    w.remarks = prev ? prev.rem : NO_REMARKS;
    w.len = prev?.len;
    w.changed = false;
    w.search = null;
  }
  // One test of all the gates together first: most strings pass none, and then no gated rule set looks further. A
  // value with pii=maybe that no gated rule set here can select is not looked up (as missing them all: never read).
  const profile = walk.config.profile(state.rawKey);
  const gates = value === null || walk.config.gate === null ? ALL_GATES : state.pii === PII_MAYBE && !profile.gatesForPiiMaybe ? null : walk.config.gate(value);
  const apps = walk.config.applications;
  // A value an earlier rule set changed: the later gates' flags for it, from one lookup per change.
  let flagsOf: string | null = value;
  let flags = gates;
  for (let i = 0; i < apps.length; i++) {
    const app = apps[i]!;
    // Before the selector, whether any rule could act at all: the selector must allow this key; then on a non-string
    // only `anything` or a key rule can act, on a string whose value passes no gate only `anything` or a key rule
    // whose pattern matches the key.
    if (profile.possible[i] === 0) continue;
    let gated = false;
    if (w === null) {
      if (!app.forNonStrings || (!app.anything && profile.hit[i] === 0)) continue;
    } else {
      // The flags are the original value's; a value an earlier rule changed is tested again as it is now.
      if (app.gate !== null && gates !== null && w.changed && w.value !== flagsOf) {
        flags = walk.config.gate!(w.value);
        flagsOf = w.value;
      }
      gated = app.gate !== null && (gates === null || flags === null || flags[i] === 0);
      if (gated && !app.anything && profile.hit[i] === 0) continue;
    }
    if (!app.test(state)) continue;
    for (const rule of app.rules) {
      if (applyRule(rule, state.rawKey, w, gated) === DELETE) {
        const m = ownMeta(walk);
        if (w?.changed) {
          m.rem = w.remarks;
          if (m.len === undefined) m.len = w.len;
        }
        m.rem.push([rule.origin, "x"]);
        return DELETE;
      }
    }
  }
  if (w === null) return null;
  if (w.changed) {
    const m = ownMeta(walk);
    m.rem = w.remarks;
    if (m.len === undefined) m.len = w.len;
  }
  return w.value;
}

/** For non-strings and configs without gated rule sets, where no flag is read. */
const ALL_GATES = new Uint8Array(0);

const SKIPPED_STRINGS = new Set(["", "true", "false", "null", "undefined"]);
/** `process_string`'s skipped values, without hashing every long string to find out. */
const skipped = (value: string) => value.length <= 9 && SKIPPED_STRINGS.has(value);

/** Where the last `/` or `\\` of a path is, or -1 (one scan from the end, where lastIndexOf would make two). */
function lastSeparator(path: string): number {
  for (let i = path.length - 1; i >= 0; i--) {
    const c = path.charCodeAt(i);
    if (c === 0x2f || c === 0x5c) return i;
  }
  return -1;
}

/** Writes `holder[slot]`, as an own property even for a key named `__proto__`. */
function put(holder: Record<string, unknown> | unknown[], slot: string | number, value: unknown): void {
  if (slot === "__proto__") Object.defineProperty(holder, slot, { value, enumerable: true, writable: true, configurable: true });
  else (holder as Record<string, unknown>)[slot] = value;
}

/** Visits `holder[slot]`; sets it to null when a rule deletes it. */
function visit(walk: Walk, holder: Record<string, unknown> | unknown[], slot: string | number, state: S, node: Node | undefined): void {
  // An untyped value with pii=false (context lines, modules, SDK packages...) passes its pii on to everything
  // below it, and no selector matches pii=false: nothing there can be scrubbed.
  if (node === undefined && state.pii === PII_FALSE) return;
  const value =
    slot === "__proto__" ? (Object.hasOwn(holder, slot) ? (holder as Record<string, unknown>)[slot] : undefined) : (holder as Record<string, unknown>)[slot];
  if (value === null || value === undefined || typeof value === "boolean") return;
  if (typeof value === "string") {
    if (node?.kind === "nip") {
      const cut = lastSeparator(value);
      if (cut < 0) return;
      const head = value.slice(0, cut);
      const out = skipped(head) ? head : applyAll(walk, state, head);
      if (out !== head) put(holder, slot, out === DELETE ? value.slice(cut + 1) : out + value.slice(cut));
      return;
    }
    if (skipped(value)) return;
    const out = applyAll(walk, state, value);
    if (out !== value) put(holder, slot, out === DELETE ? null : out);
    return;
  }
  if (typeof value !== "number" && typeof value !== "object") return;
  if (applyAll(walk, state, null) === DELETE) {
    put(holder, slot, null);
    return;
  }
  if (typeof value !== "object") return;
  if (state.depth >= SCRUB_LIMITS.maxWalkDepth) {
    // Deeper than any normalized event: dropped rather than left unscrubbed.
    put(holder, slot, null);
    return;
  }
  if (Array.isArray(value)) {
    if (node?.kind === "pairs") return visitPairs(walk, value, state);
    return visitArray(walk, value, state, node?.kind === "array" ? node.each : undefined);
  }
  const obj = value as Record<string, unknown>;
  if (node?.kind === "struct") return visitStruct(walk, obj, state, node);
  if (node?.kind === "contexts") return visitContexts(walk, obj, state);
  const each = node?.kind === "object" ? node.each : undefined;
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) child(walk, obj, keys[i]!, enter(walk, state, keys[i]!, -1, state.pii, typesOf(each, obj[keys[i]!])), each);
}

function child(walk: Walk, holder: Record<string, unknown> | unknown[], slot: string | number, state: S, node: Node | undefined): void {
  descend(walk, segment(slot));
  visit(walk, holder, slot, state, node);
  walk.path.pop();
}

function visitStruct(walk: Walk, obj: Record<string, unknown>, state: S, node: Node & { kind: "struct" }): void {
  const isUser = (state.types & VT.user) !== 0;
  const ipWasValid = isUser ? validIp(obj.ip_address) : false;
  const keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key === "_meta") continue;
    const field = node.fieldMap.get(key);
    const pii = field ? field.pii : node.other;
    if (pii === PII_FALSE && field?.node === undefined) continue; // untyped and pii=false: nothing below can change
    child(walk, obj, key, enter(walk, state, key, -1, pii, typesOf(field?.node, obj[key])), field?.node);
  }
  if (isUser && ipWasValid && obj.id == null && obj.username == null && obj.email == null && !validIp(obj.ip_address)) moveIpToId(walk, obj);
}

/** `IpAddr::is_valid`: absent, `{{auto}}` or an address. */
function validIp(ip: unknown): boolean {
  return ip === undefined || ip === null || ip === "{{auto}}" || (typeof ip === "string" && isIP(ip) !== 0);
}

function moveIpToId(walk: Walk, user: Record<string, unknown>): void {
  user.id = user.ip_address;
  delete user.ip_address;
  const own = metaAt(walk.meta, [...walk.path, "ip_address"], false);
  if (own) {
    const target = metaAt(walk.meta, [...walk.path, "id"], true);
    target.rem.push(...own.rem);
    if (target.len === undefined) target.len = own.len;
    own.rem = [];
    own.len = undefined;
  }
}

function visitContexts(walk: Walk, obj: Record<string, unknown>, state: S): void {
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    const node = typeof value === "object" && value !== null && !Array.isArray(value) ? contextNode(key, value as Record<string, unknown>) : undefined;
    child(walk, obj, key, enter(walk, state, key, -1, PII_TRUE, typesOf(node, value) | jsonTypes(value)), node);
  }
}

function visitPairs(walk: Walk, list: unknown[], state: S): void {
  for (let i = 0; i < list.length; i++) {
    const pair = list[i];
    if (Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string") {
      descend(walk, segment(i));
      child(walk, pair, 1, enter(walk, state, pair[0], -1, state.pii, jsonTypes(pair[1])), undefined);
      walk.path.pop();
    } else {
      child(walk, list, i, enter(walk, state, null, i, state.pii, jsonTypes(pair)), undefined);
    }
  }
}

function visitArray(walk: Walk, list: unknown[], state: S, each: Node | undefined): void {
  // `process_array`: a two-item array with a string first is tried as a key and its value first.
  // Relay stops when the value's meta went from empty to not empty; here a value that carries remarks at the end
  // (from this walk, or from an earlier scrub or config) also counts, so that scrubbing again does not go on to
  // scrub the key as a value.
  if (list.length === 2 && typeof list[0] === "string" && list[1] !== null && list[1] !== undefined) {
    child(walk, list, 1, enter(walk, state, list[0], -1, state.pii, jsonTypes(list[1])), undefined);
    const here = walk.metas[walk.path.length];
    const after = here === undefined ? undefined : childMeta(here, "1")?.own;
    if (after && after.rem.length > 0) return;
  }
  for (let i = 0; i < list.length; i++) child(walk, list, i, enter(walk, state, null, i, state.pii, typesOf(each, list[i])), each);
}

/**
 * The state a dotted path (`user.ip_address`, `request.headers.0`) has in the walk, following the schema as `visit`
 * does; a fresh chain (not the walk's reused states), with the node the value would have there.
 */
function stateAt(root: S, rootNode: Node, segments: readonly string[]): { state: S; node: Node | undefined } {
  let state = root;
  let node: Node | undefined = rootNode;
  for (const seg of segments) {
    const isIndex = /^(0|[1-9][0-9]*)$/.test(seg);
    let pii = state.pii;
    let next: Node | undefined;
    if (node?.kind === "struct") {
      const field: Field | undefined = Object.hasOwn(node.fields, seg) ? node.fields[seg] : undefined;
      pii = field ? field.pii : node.other;
      next = field?.node;
    } else if (node?.kind === "contexts") {
      pii = PII_TRUE;
    } else if (node?.kind === "array" || node?.kind === "object") {
      next = node.each;
    }
    const key = isIndex && (node === undefined || node.kind === "array" || node.kind === "pairs") ? null : seg;
    const types =
      next?.kind === "struct" || next?.kind === "string"
        ? next.types
        : next?.kind === "array"
          ? VT.array
          : next?.kind === "pairs" || next?.kind === "object"
            ? VT.object
            : 0;
    state = { parent: state, key: key === null ? null : undefined, rawKey: key, index: key === null ? Number(seg) : -1, pii, types, depth: state.depth + 1 };
    node = next;
  }
  return { state, node };
}

/**
 * Faultline keeps the original of a repaired value in `errors[].value` (Relay keeps it in the value's meta and
 * scrubs it there, processor.rs `before_process`): each is scrubbed as the value at its `name` would be, its notes
 * under `errors.<i>.value`.
 */
function scrubOriginals(walk: Walk, root: Record<string, unknown>, rootState: S, rootNode: Node): void {
  const errors = root.errors;
  if (!Array.isArray(errors)) return;
  errors.forEach((error, i) => {
    if (typeof error !== "object" || error === null || Array.isArray(error)) return;
    const e = error as Record<string, unknown>;
    if (typeof e.name !== "string" || e.value === undefined || e.value === null) return;
    const { state, node } = stateAt(rootState, rootNode, e.name === "" ? [] : e.name.split("."));
    if (state.depth === 0) return;
    const typed: S = { ...state, types: typesOf(node, e.value) };
    walk.path.length = 0;
    descend(walk, "errors");
    descend(walk, segment(i));
    walk.states.length = 0;
    walk.states[typed.depth] = typed;
    child(walk, e, "value", typed, node?.kind === "nip" ? undefined : node);
    walk.path.length = 0;
  });
}

/** Scrubs `root` (an event or a span) in place with one compiled config; notes go into `meta`. */
export function processRoot(root: Record<string, unknown>, node: Node & { kind: "struct" }, config: CompiledConfig, meta: MetaTree, nested = false): void {
  if (config.applications.length === 0) return;
  const walk: Walk = {
    config,
    meta,
    metas: [meta],
    path: [],
    states: [],
    working: working("", NO_REMARKS, undefined),
  };
  let state: S = { parent: null, key: null, rawKey: null, index: -1, pii: PII_FALSE, types: nested ? 0 : node.types, depth: 0 };
  walk.states[0] = state;
  // A standalone span is entered below an unnamed root, as a span inside an event is, so `$span.…` selectors reach it.
  if (nested) state = { ...enter(walk, state, null, -1, PII_FALSE, node.types) };
  if (nested) walk.states[1] = state;
  visitStruct(walk, root, state, node);
  if (!nested) scrubOriginals(walk, root, state, node);
}
