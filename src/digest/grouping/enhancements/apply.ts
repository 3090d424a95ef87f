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

/** Runs the in_app and category actions over one stacktrace's frames, in place. */
export function applyModifications(enh: Enhancements, frames: GFrame[], eventPlatform: string | null): void {
  const mfs = frames.map((f) => matchFrame(f, eventPlatform));
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

/** Runs the group actions over the frame components of one stacktrace variant, in place. */
export function applyGroupActions(
  enh: Enhancements,
  components: GroupingComponent[],
  frames: readonly GFrame[],
  eventPlatform: string | null,
): void {
  const mfs = frames.map((f) => matchFrame(f, eventPlatform));
  const candidates = mfs.map(enh.candidates);
  for (const { rule, actions } of applicable(enh.grouping, candidates, "grouping")) {
    for (let idx = 0; idx < frames.length; idx += 1) {
      if (!ruleMatches(rule, mfs, idx, candidates)) continue;
      for (const action of actions) {
        if (action.kind !== "flag") continue;
        for (const c of sliceRange(components, idx, action.range)) {
          if (c.contributes !== action.flag) {
            const verb = action.flag ? "un-ignored" : "ignored";
            update(c, { contributes: action.flag, hint: `${verb} by stack trace rule (${rule.text})` });
          }
        }
      }
    }
  }
}
