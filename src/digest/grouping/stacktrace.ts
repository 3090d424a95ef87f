// The stacktrace strategy: one frame component per frame, with the recursion rule, the app
// variant's "non app frame" rule, the JavaScript single-URL-frame rule and the group actions of
// the stack trace rules; produces the mandatory `system` and the optional `app` variant
// (getsentry/sentry src/sentry/grouping/strategies/newstyle.py `stacktrace`,
// `_single_stacktrace_variant`, `is_recursion_v1`).
import { component, update, type GroupingComponent } from "./component";
import type { StrategyContext, VariantMap } from "./context";
import { applyGroupActions } from "./enhancements/apply";
import { frameComponent } from "./frame";
import type { GFrame } from "./normalize";
import { behaviorFamily, isUrl } from "./platform";

const RECURSION_FIELDS = ["abs_path", "package", "module", "filename", "function", "lineno", "colno"] as const;

function isRecursion(frame: GFrame, prev: GFrame | null): boolean {
  if (prev === null) return false;
  return RECURSION_FIELDS.every((k) => frame[k] === prev[k]);
}

function outOfAppHint(f: GFrame): string {
  if (f.inAppRule !== null) return `marked out of app by stack trace rule (${f.inAppRule})`;
  return "non app frame";
}

function singleVariant(frames: readonly GFrame[], variant: "system" | "app", ctx: StrategyContext): GroupingComponent {
  const values: GroupingComponent[] = [];
  let prev: GFrame | null = null;
  for (const f of frames) {
    const fc = frameComponent(f, ctx.eventPlatform, ctx.frame, isRecursion(f, prev));
    if (variant === "app" && !f.in_app) update(fc, { contributes: false, hint: outOfAppHint(f) });
    values.push(fc);
    prev = f;
  }
  const first = frames[0];
  const firstComponent = values[0];
  if (
    frames.length === 1 &&
    first !== undefined &&
    firstComponent !== undefined &&
    firstComponent.contributes &&
    behaviorFamily(first.platform ?? ctx.eventPlatform) === "javascript" &&
    !first.function &&
    isUrl(first.abs_path)
  ) {
    update(firstComponent, { contributes: false, hint: "ignored single non-URL JavaScript frame" });
  }
  applyGroupActions(ctx.enhancements, values, frames, ctx.eventPlatform);
  const st = component("stacktrace", { values });
  if (variant === "app" && !st.contributes && frames.every((f) => !f.in_app)) {
    update(st, { hint: "ignored because it contains no in-app frames" });
  }
  return st;
}

export function stacktraceVariants(frames: readonly GFrame[], ctx: StrategyContext): VariantMap {
  return new Map([
    ["!system", singleVariant(frames, "system", ctx)],
    ["app", singleVariant(frames, "app", ctx)],
  ]);
}
