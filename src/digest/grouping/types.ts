// The result of grouping an event, shared by every grouping config.
import type { GroupingComponent } from "./component";
import type { GroupingEventInput } from "./event";

export interface GroupingVariant {
  /** "component" (app/system/default), "salted_component" (hybrid fingerprint),
   * "custom_fingerprint" or "fallback", as Sentry names its variant types. */
  type: "component" | "salted_component" | "custom_fingerprint" | "fallback";
  hash: string | null;
  contributes: boolean;
  component: GroupingComponent;
}

export interface GroupingResult {
  /** The id of the config that produced the hashes; store it with them. */
  config: string;
  variants: Record<string, GroupingVariant>;
  /** Distinct non-null hashes, the system variant's last (Sentry's `get_hashes` order). */
  hashes: string[];
}

export interface GroupingConfig {
  id: string;
  group(event: GroupingEventInput | unknown): GroupingResult;
  /**
   * Everything `group` reads of `event`, as a string that two events share only when `group` gives them the same
   * hashes; or null when the event is grouped by more than the key holds. The digest remembers hashes by it (memo.ts).
   */
  key?(event: GroupingEventInput | unknown): string | null;
}
