// Database pools this process has open, by name, for the metrics (metrics.ts). On globalThis under a registered symbol:
// the pages' pool is opened inside Next's bundle (runtime/services.ts), which has its own copy of this module.
export type PoolFigures = { total: number; idle: number; waiting: number };

const KEY = Symbol.for("faultline.db-pools");
type Holder = { [KEY]?: Map<string, () => PoolFigures> };

const pools = (): Map<string, () => PoolFigures> => {
  const holder = globalThis as Holder;
  holder[KEY] ??= new Map();
  return holder[KEY];
};

/** Names a pool's figures; null forgets it (the pool closed). */
export function watchPool(name: string, figures: (() => PoolFigures) | null | undefined): void {
  if (figures) pools().set(name, figures);
  else pools().delete(name);
}

export function poolFigures(): [string, PoolFigures][] {
  return [...pools()].map(([name, f]) => [name, f()]);
}
