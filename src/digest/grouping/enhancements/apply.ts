// Applying stack trace rules the way Sentry's `Enhancements` does: first, before grouping,
// `+app`/`-app` and `category=` actions modify the frames rule by rule (and frame by frame, so a
// category set on one frame is seen by the next); then, while the stacktrace component is
// assembled, `+group`/`-group` actions switch frame components on or off (getsentry/sentry
// src/sentry/grouping/enhancer/__init__.py `apply_modifications_to_frame`,
// `assemble_stacktrace_component`; actions.py `FlagAction`).
import { update, type GroupingComponent } from "../component";
import type { GFrame } from "../normalize";
import { behaviorFamily } from "../platform";
import { isStaticSelf, matcherMatches, parseRules, type MatchFrame, type Rule, type RuleAction } from "./rules";

export interface Enhancements {
  rules: Rule[];
  /** Per frame (by family, path, package, module, function), the rules whose static matchers hold for it. */
  candidates: (frame: MatchFrame) => Candidates;
  /** The rules with in_app or category actions, and the rules with group actions, each with those actions only. */
  modifying: { rule: Rule; actions: RuleAction[] }[];
  grouping: { rule: Rule; actions: RuleAction[] }[];
}

/** A frame's candidate rules, and where they sit in `modifying` and in `grouping` (ascending). */
export type Candidates = { rules: Set<Rule>; modifying: number[]; grouping: number[] };

export function loadEnhancements(...texts: string[]): Enhancements {
  const rules = texts.flatMap((t) => parseRules(t));
  const withActions = (keep: (a: RuleAction) => boolean) =>
    rules.map((rule) => ({ rule, actions: rule.actions.filter(keep) })).filter((r) => r.actions.length > 0);
  const modifying = withActions((a) => a.kind === "category" || a.key === "app");
  const grouping = withActions((a) => a.kind === "flag" && a.key === "group");
  return { rules, candidates: candidateFinder(rules, modifying, grouping), modifying, grouping };
}

function matchFrame(f: GFrame, eventPlatform: string | null): MatchFrame {
  return {
    category: f.category,
    family: behaviorFamily(f.platform ?? eventPlatform),
    function: f.function,
    in_app: f.in_app === true,
    module: f.module,
    package: f.package !== null ? f.package.toLowerCase().replace(/\\/g, "/") : null,
    path: (f.abs_path ?? f.filename)?.toLowerCase().replace(/\\/g, "/") ?? null,
  };
}

function sliceRange<T>(items: readonly T[], idx: number, range: "up" | "down" | null): T[] {
  if (range === "down") return items.slice(0, idx);
  if (range === "up") return items.slice(idx + 1);
  const one = items[idx];
  return one === undefined ? [] : [one];
}

/** entries; frames remembered before the memory starts over, so that odd inputs cannot grow it without bound. */
const MAX_REMEMBERED_FRAMES = 4096;

/**
 * Which rules a frame can match, by what rules never change about it. Frames repeat the same files and functions
 * event after event, so this is worked out once per distinct frame instead of hundreds of glob tests per frame.
 */
function candidateFinder(rules: Rule[], modifying: { rule: Rule }[], grouping: { rule: Rule }[]): (frame: MatchFrame) => Candidates {
  const remembered = new Map<string, Candidates>();
  const positions = (list: { rule: Rule }[], set: Set<Rule>) => list.flatMap((r, i) => (set.has(r.rule) ? [i] : []));
  return (frame) => {
    const key = `${frame.family}\u0000${frame.path}\u0000${frame.package}\u0000${frame.module}\u0000${frame.function}`;
    let found = remembered.get(key);
    if (!found) {
      const set = new Set(rules.filter((rule) => rule.matchers.every((m) => !isStaticSelf(m) || matcherMatches(m, [frame], 0))));
      found = { rules: set, modifying: positions(modifying, set), grouping: positions(grouping, set) };
      if (remembered.size >= MAX_REMEMBERED_FRAMES) remembered.clear();
      remembered.set(key, found);
    }
    return found;
  };
}

function ruleMatches(rule: Rule, frames: readonly MatchFrame[], idx: number, candidates: Candidates[]): boolean {
  return candidates[idx]!.rules.has(rule) && rule.matchers.every((m) => isStaticSelf(m) || matcherMatches(m, frames, idx));
}

/**
 * The rules of `list` (in its order) that some frame is a candidate for: the only ones worth trying frame by frame.
 * Rules run in order, since one's actions (a category) can change what the next matches.
 */
function applicable<T>(list: readonly T[], candidates: Candidates[], which: "modifying" | "grouping"): T[] {
  const at = new Set<number>();
  for (const c of candidates) for (const i of c[which]) at.add(i);
  return [...at].sort((a, b) => a - b).map((i) => list[i]!);
}

/** stacks; outcomes remembered before the memory starts over. */
const MAX_REMEMBERED_STACKS = 512;
/**
 * characters; the longest stack key remembered (an 18-frame browser stack's is about 2,700). A stack past it is
 * matched every time instead: keys grow with the frames' paths and names, and an event of 1 MiB could otherwise make
 * a key of about that size, so that hostile events could fill the memory with 512 of them. At most 512 × 8,192
 * characters (8 MiB as UTF-16) per memory, two memories.
 */
const MAX_STACK_KEY_CHARS = 8192;

/**
 * Remembers, per stack, what the rules did to it: events of one error repeat its stack, and the rules' outcome is a
 * function of what the key holds (what matchFrame reads of each frame, the in_app flag as sent, and for group actions
 * whether each component contributes), so it is replayed instead of matched again.
 */
function stackMemo<T>(): { get: (key: string) => T | undefined; set: (key: string, value: T) => void } {
  const remembered = new Map<string, T>();
  return {
    get: (key) => remembered.get(key),
    set: (key, value) => {
      if (key.length > MAX_STACK_KEY_CHARS) return;
      if (remembered.size >= MAX_REMEMBERED_STACKS) remembered.clear();
      remembered.set(key, value);
    },
  };
}

const frameKey = (mf: MatchFrame, f: GFrame) =>
  `${mf.family}\u0001${mf.path}\u0001${mf.package}\u0001${mf.module}\u0001${mf.function}\u0001${mf.category}\u0001${f.in_app}\u0001${f.inAppRule}`;
const stackKey = (mfs: MatchFrame[], frames: readonly GFrame[]) => mfs.map((mf, i) => frameKey(mf, frames[i]!)).join("\u0002");

/** A frame's fields the in_app and category actions may change, as they stand after the rules ran. */
type FrameOutcome = { category: string | null; in_app: boolean | null; inAppRule: string | null };
const modificationMemos = new WeakMap<Enhancements, ReturnType<typeof stackMemo<FrameOutcome[]>>>();

/** Runs the in_app and category actions over one stacktrace's frames, in place. */
export function applyModifications(enh: Enhancements, frames: GFrame[], eventPlatform: string | null): void {
  const mfs = frames.map((f) => matchFrame(f, eventPlatform));
  let memo = modificationMemos.get(enh);
  if (!memo) modificationMemos.set(enh, (memo = stackMemo<FrameOutcome[]>()));
  const key = stackKey(mfs, frames);
  const known = memo.get(key);
  if (known) {
    known.forEach((o, i) => Object.assign(frames[i]!, o));
    return;
  }
  runModifications(enh, frames, mfs);
  memo.set(
    key,
    frames.map((f) => ({ category: f.category, in_app: f.in_app, inAppRule: f.inAppRule })),
  );
}

function runModifications(enh: Enhancements, frames: GFrame[], mfs: MatchFrame[]): void {
  const candidates = mfs.map(enh.candidates);
  for (const { rule, actions } of applicable(enh.modifying, candidates, "modifying")) {
    for (let idx = 0; idx < frames.length; idx += 1) {
      if (!ruleMatches(rule, mfs, idx, candidates)) continue;
      for (const action of actions) {
        if (action.kind === "category") {
          const f = frames[idx];
          const mf = mfs[idx];
          if (f && mf) {
            f.category = action.value;
            mf.category = action.value;
          }
          continue;
        }
        for (const mf of sliceRange(mfs, idx, action.range)) mf.in_app = action.flag;
        for (const f of sliceRange(frames, idx, action.range)) {
          if (f.in_app !== action.flag) {
            f.in_app = action.flag;
            f.inAppRule = rule.text;
          }
        }
      }
    }
  }
}

/** A group action's change of one frame component, in the order the rules made them. */
type GroupChange = { index: number; contributes: boolean; hint: string };
const groupMemos = new WeakMap<Enhancements, ReturnType<typeof stackMemo<GroupChange[]>>>();

/** Runs the group actions over the frame components of one stacktrace variant, in place. */
export function applyGroupActions(enh: Enhancements, components: GroupingComponent[], frames: readonly GFrame[], eventPlatform: string | null): void {
  const mfs = frames.map((f) => matchFrame(f, eventPlatform));
  let memo = groupMemos.get(enh);
  if (!memo) groupMemos.set(enh, (memo = stackMemo<GroupChange[]>()));
  const key = `${stackKey(mfs, frames)}\u0003${components.map((c) => (c.contributes ? "1" : "0")).join("")}`;
  const known = memo.get(key);
  if (known) {
    for (const ch of known) update(components[ch.index]!, { contributes: ch.contributes, hint: ch.hint });
    return;
  }
  const changes: GroupChange[] = [];
  runGroupActions(enh, components, mfs, changes);
  memo.set(key, changes);
}

function runGroupActions(enh: Enhancements, components: GroupingComponent[], mfs: MatchFrame[], changes: GroupChange[]): void {
  const candidates = mfs.map(enh.candidates);
  for (const { rule, actions } of applicable(enh.grouping, candidates, "grouping")) {
    for (let idx = 0; idx < mfs.length; idx += 1) {
      if (!ruleMatches(rule, mfs, idx, candidates)) continue;
      for (const action of actions) {
        if (action.kind !== "flag") continue;
        for (const c of sliceRange(components, idx, action.range)) {
          if (c.contributes !== action.flag) {
            const verb = action.flag ? "un-ignored" : "ignored";
            const hint = `${verb} by stack trace rule (${rule.text})`;
            update(c, { contributes: action.flag, hint });
            changes.push({ index: components.indexOf(c), contributes: action.flag, hint });
          }
        }
      }
    }
  }
}
