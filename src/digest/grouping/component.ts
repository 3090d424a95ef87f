// The grouping component tree and its hash, as Sentry's `GroupingComponent` builds it
// (getsentry/sentry src/sentry/grouping/component.py, utils.py `hash_from_values`).
//
// A component either holds leaf values (strings) or child components. Whether it contributes
// is computed from its values when they are set (any string, or any contributing child) and
// can be overridden afterwards; like Sentry, it is not recomputed when a child changes later.
// The hash is md5 over the concatenated contributing leaf values in tree order.
import { createHash } from "node:crypto";

export type ComponentValue = GroupingComponent | string;

export interface GroupingComponent {
  id: string;
  contributes: boolean;
  hint: string | null;
  values: ComponentValue[];
}

export interface ComponentUpdate {
  contributes?: boolean;
  hint?: string;
  values?: ComponentValue[];
}

function calculateContributes(values: readonly ComponentValue[]): boolean {
  return values.some((v) => typeof v === "string" || v.contributes);
}

/** Applies an update with Sentry's rules: new values recompute `contributes` unless it is given. */
export function update(component: GroupingComponent, change: ComponentUpdate): GroupingComponent {
  if (change.hint !== undefined) component.hint = change.hint;
  let contributes = change.contributes;
  if (change.values !== undefined) {
    if (contributes === undefined) contributes = calculateContributes(change.values);
    component.values = change.values;
  }
  if (contributes !== undefined) component.contributes = contributes;
  return component;
}

export function component(id: string, init: ComponentUpdate = {}): GroupingComponent {
  const c: GroupingComponent = { id, contributes: false, hint: null, values: [] };
  return update(c, init);
}

/** The contributing leaf values in tree order (nothing when the component does not contribute). */
export function iterValues(c: GroupingComponent): string[] {
  const out: string[] = [];
  const walk = (node: GroupingComponent): void => {
    if (!node.contributes) return;
    for (const v of node.values) {
      if (typeof v === "string") out.push(v);
      else walk(v);
    }
  };
  walk(c);
  return out;
}

export function hashFromValues(values: readonly string[]): string {
  const h = createHash("md5");
  for (const v of values) h.update(v, "utf8");
  return h.digest("hex");
}

export function getHash(c: GroupingComponent): string | null {
  return c.contributes ? hashFromValues(iterValues(c)) : null;
}

/** Child components with the given id, depth-first (Sentry's `iter_subcomponents(recursive=True)`);
 * with `onlyContributing`, non-contributing subtrees are skipped. */
export function findSubcomponents(c: GroupingComponent, id: string, onlyContributing: boolean): GroupingComponent[] {
  const out: GroupingComponent[] = [];
  const walk = (node: GroupingComponent): void => {
    for (const v of node.values) {
      if (typeof v === "string") continue;
      if (onlyContributing && !v.contributes) continue;
      if (v.id === id) out.push(v);
      walk(v);
    }
  };
  walk(c);
  return out;
}
