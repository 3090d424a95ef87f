// Faultline's event grouping: a port of Sentry's grouping (config `newstyle:2023-01-11`) as a pure
// function from an event to its grouping hashes, with the component tree that explains them.
//
//   import { groupEvent } from "@/digest/grouping";
//   const { config, hashes, variants } = groupEvent(event);
//   // store each of `hashes` with `config`; an event joins the issue that owns any of them.
import { rememberedHashes } from "./memo";
import { getGroupingConfig } from "./registry";
import type { GroupingEventInput } from "./event";
import type { GroupingResult } from "./types";

export interface GroupEventOptions {
  /** Grouping config id; defaults to `DEFAULT_GROUPING_CONFIG`. Unknown ids throw. */
  config?: string;
}

export function groupEvent(event: GroupingEventInput | unknown, opts: GroupEventOptions = {}): GroupingResult {
  return getGroupingConfig(opts.config).group(event);
}

/** The config id and hashes of groupEvent, without the component trees, remembered for repeated inputs (memo.ts). */
export function groupHashes(event: GroupingEventInput | unknown, opts: GroupEventOptions = {}): { config: string; hashes: string[] } {
  return rememberedHashes(getGroupingConfig(opts.config), event);
}

export { DEFAULT_GROUPING_CONFIG, getGroupingConfig, groupingConfigIds } from "./registry";
export { getHash, iterValues, hashFromValues, type GroupingComponent } from "./component";
export { normalizeMessageForGrouping } from "./message";
export type { GroupingEventInput } from "./event";
export type { GroupingConfig, GroupingResult, GroupingVariant } from "./types";
