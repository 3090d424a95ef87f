// What the strategies of one grouping config share while they run: the event's platform, the
// config's switches and its stack trace rules (Sentry's `GroupingContext` initial context,
// src/sentry/grouping/strategies/configurations.py).
import type { Enhancements } from "./enhancements/apply";
import type { FrameOptions } from "./frame";

export interface StrategyContext {
  eventPlatform: string | null;
  frame: FrameOptions;
  enhancements: Enhancements;
}

/** Components of one strategy by variant; a leading "!" marks the mandatory (system) variant. */
export type VariantMap = Map<string, import("./component").GroupingComponent>;
