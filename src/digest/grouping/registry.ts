// The grouping configs Faultline knows, by id. Hashes are only comparable within one config, so
// the id is returned with every result and stored with each hash; a later config is added here
// beside the existing ones and the default moves to it, as Sentry's configurations.py does.
import { NEWSTYLE_2023_01_11, newstyle20230111 } from "./newstyle-2023-01-11";
import type { GroupingConfig } from "./types";

const CONFIGS: ReadonlyMap<string, GroupingConfig> = new Map([[NEWSTYLE_2023_01_11, newstyle20230111]]);

export const DEFAULT_GROUPING_CONFIG = NEWSTYLE_2023_01_11;

export function groupingConfigIds(): string[] {
  return [...CONFIGS.keys()];
}

export function getGroupingConfig(id: string = DEFAULT_GROUPING_CONFIG): GroupingConfig {
  const config = CONFIGS.get(id);
  if (config === undefined) throw new Error(`unknown grouping config ${JSON.stringify(id)}`);
  return config;
}
