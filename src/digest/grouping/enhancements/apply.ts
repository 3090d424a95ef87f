// Applying stack trace rules the way Sentry's `Enhancements` does: first, before grouping,
// `+app`/`-app` and `category=` actions modify the frames rule by rule (and frame by frame, so a
// category set on one frame is seen by the next); then, while the stacktrace component is
// assembled, `+group`/`-group` actions switch frame components on or off (getsentry/sentry
// src/sentry/grouping/enhancer/__init__.py `apply_modifications_to_frame`,
// `assemble_stacktrace_component`; actions.py `FlagAction`).
import { update, type GroupingComponent } from "../component";
import type { GFrame } from "../normalize";
import { behaviorFamily } from "../platform";
import { matcherMatches, parseRules, type MatchFrame, type Rule } from "./rules";

export interface Enhancements {
  rules: Rule[];
}

export function loadEnhancements(...texts: string[]): Enhancements {
  return { rules: texts.flatMap((t) => parseRules(t)) };
}

function matchFrame(f: GFrame, eventPlatform: string | null): MatchFrame {
  return {
    category: f.category,
    family: behaviorFamily(f.platform ?? eventPlatform),
    function: f.function,
    in_app: f.in_app === true,
    module: f.module,
    package: f.package !== null ? f.package.toLowerCase() : null,
    path: (f.abs_path ?? f.filename)?.toLowerCase() ?? null,
  };
}

function sliceRange<T>(items: readonly T[], idx: number, range: "up" | "down" | null): T[] {
  if (range === "down") return items.slice(0, idx);
  if (range === "up") return items.slice(idx + 1);
  const one = items[idx];
  return one === undefined ? [] : [one];
}

function ruleMatches(rule: Rule, frames: readonly MatchFrame[], idx: number): boolean {
  return rule.matchers.every((m) => matcherMatches(m, frames, idx));
}

/** Runs the in_app and category actions over one stacktrace's frames, in place. */
export function applyModifications(enh: Enhancements, frames: GFrame[], eventPlatform: string | null): void {
  const mfs = frames.map((f) => matchFrame(f, eventPlatform));
  for (const rule of enh.rules) {
    const actions = rule.actions.filter((a) => a.kind === "category" || a.key === "app");
    if (actions.length === 0) continue;
    for (let idx = 0; idx < frames.length; idx += 1) {
      if (!ruleMatches(rule, mfs, idx)) continue;
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
  for (const rule of enh.rules) {
    const actions = rule.actions.filter((a) => a.kind === "flag" && a.key === "group");
    if (actions.length === 0) continue;
    for (let idx = 0; idx < frames.length; idx += 1) {
      if (!ruleMatches(rule, mfs, idx)) continue;
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
