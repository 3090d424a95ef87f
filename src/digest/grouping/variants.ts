// Running a config's strategies over an event and assembling the per-variant component trees:
// the mandatory-system rule (the system variant does not contribute when the app variant hashes
// the same; the app variant does not contribute when the system variant does not), the "only variants with a
// contributing stacktrace" rule, and strategy precedence (getsentry/sentry
// src/sentry/grouping/strategies/base.py `get_grouping_component_variants`,
// strategies/utils.py `remove_non_stacktrace_variants`, api.py `_get_variants_from_strategies`).
import { component, findSubcomponents, getHash, update, type GroupingComponent } from "./component";
import type { StrategyContext, VariantMap } from "./context";

export interface Strategy {
  /** Name used in precedence hints, e.g. "exception". */
  name: string;
  /** Variant components, or null when the event lacks the strategy's interface. */
  run(ctx: StrategyContext): VariantMap | null;
  /** Whether `remove_non_stacktrace_variants` post-processes this strategy's variants. */
  stacktraceVariantsOnly: boolean;
}

function removeNonStacktraceVariants(variants: Map<string, GroupingComponent>): void {
  if (variants.size <= 1) return;
  const withStacktrace: string[] = [];
  const without: GroupingComponent[] = [];
  for (const [name, c] of variants) {
    if (findSubcomponents(c, "stacktrace", true).length > 0) withStacktrace.push(name);
    else without.push(c);
  }
  if (withStacktrace.length === 0) return;
  const suffix = withStacktrace.length === 1 ? `the ${withStacktrace[0]} variant does` : "others do";
  for (const c of without) {
    update(c, {
      contributes: false,
      hint: `ignored because this variant does not have a contributing stacktrace, but ${suffix}`,
    });
  }
}

/** One strategy's variants with mandatory variants resolved and "!" stripped from the names. */
function strategyVariants(strategy: Strategy, ctx: StrategyContext): Map<string, GroupingComponent> | null {
  const raw = strategy.run(ctx);
  if (raw === null) return null;
  const rv = new Map<string, GroupingComponent>();
  let hasMandatory = false;
  const mandatoryHashes = new Map<string, string>();
  const optional: string[] = [];
  for (const [key, c] of raw) {
    const mandatory = key.startsWith("!");
    const name = key.replace(/^!+/, "");
    if (mandatory) hasMandatory = true;
    if (c.contributes) {
      if (mandatory) mandatoryHashes.set(getHash(c) ?? "", name);
      else optional.push(name);
    }
    rv.set(name, c);
  }
  const preventContribution = hasMandatory && mandatoryHashes.size === 0;
  for (const name of optional) {
    const c = rv.get(name);
    if (c === undefined) continue;
    if (preventContribution) {
      update(c, { contributes: false, hint: "ignored because system variant is not used" });
    } else {
      // Sentry's snapshots since late 2024 keep the optional (app) variant and drop the system
      // one when both hash the same; older code dropped the app variant instead.
      const duplicateOf = mandatoryHashes.get(getHash(c) ?? "");
      const mandatory = duplicateOf !== undefined ? rv.get(duplicateOf) : undefined;
      if (mandatory !== undefined) {
        update(mandatory, { contributes: false, hint: `ignored because hash matches ${name} variant` });
      }
    }
  }
  if (strategy.stacktraceVariantsOnly) removeNonStacktraceVariants(rv);
  return rv;
}

/** The root component of each variant ("app", "system", "default"), strategies in score order. */
export function componentTrees(strategies: readonly Strategy[], ctx: StrategyContext): Map<string, GroupingComponent> {
  let winner: string | null = null;
  let precedenceHint: string | null = null;
  const perVariant = new Map<string, GroupingComponent[]>();
  for (const strategy of strategies) {
    const variants = strategyVariants(strategy, ctx);
    if (variants === null) continue;
    for (const [name, c] of variants) {
      const list = perVariant.get(name) ?? [];
      list.push(c);
      perVariant.set(name, list);
      if (!c.contributes) continue;
      if (winner === null) {
        winner = strategy.name;
        precedenceHint = `${strategy.name} takes precedence`;
      } else if (strategy.name !== winner) {
        update(c, { contributes: false, hint: precedenceHint ?? undefined });
      }
    }
  }
  const rv = new Map<string, GroupingComponent>();
  for (const [name, list] of perVariant) {
    const root = component(name, { values: list });
    if (!root.contributes && precedenceHint !== null) update(root, { hint: precedenceHint });
    rv.set(name, root);
  }
  return rv;
}
