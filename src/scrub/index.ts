// Faultline's data scrubbing (issue 18): a TypeScript port of Sentry Relay's PII processor (relay-pii), applied by the
// digest to every stored item before grouping. Two configs run in order, as in Relay: the advanced rules
// (organization and project `relayPiiConfig`, merged as Sentry's `get_pii_config`), then the legacy settings
// converted by `to_pii_config`. Every scrubbed value leaves Relay's remark in the event's `_meta`.
import { combineConfigs, compileConfig, compileParsed, type CompiledConfig } from "./compiled";
import { parsePiiConfig, type PiiConfig } from "./config";
import { mergeDatascrubbing, mergePiiConfigs, toPiiConfig } from "./legacy";
import { isEmptyMeta, mergeMeta, seedMeta } from "./meta";
import { EVENT, SPAN_ROOT } from "./pii-fields";
import { processRoot } from "./processor";
import { scrubGraphql } from "./graphql";
import { keepOnlySafeFields } from "./fail-closed";
import { attachmentRulesApply, scrubAttachmentText } from "./attachments";

export { parsePiiConfig };
export type { PiiConfig, Redaction, RuleSpec, RuleType } from "./config";

/** What the database stores per organization and per project (Sentry's API field names). */
export type ScrubbingOptions = {
  dataScrubber: boolean;
  dataScrubberDefaults: boolean;
  sensitiveFields: string[];
  safeFields: string[];
  scrubIPAddresses: boolean;
  relayPiiConfig: string | null;
};

export const DEFAULT_SCRUBBING_OPTIONS: ScrubbingOptions = Object.freeze({
  dataScrubber: true,
  dataScrubberDefaults: true,
  sensitiveFields: [],
  safeFields: [],
  scrubIPAddresses: false,
  relayPiiConfig: null,
}) as ScrubbingOptions;

export interface Scrubber {
  /** false when nothing would ever be scrubbed (all off and no rules): the digest skips the walk. */
  readonly active: boolean;
  /** Scrubs a normalized event (error, transaction, feedback, security report; Relay's Event schema) in place and merges the remarks into event._meta. Never throws. */
  scrubEvent(event: Record<string, unknown>): void;
  /** Scrubs a standalone span item (Relay's Span schema) in place, same rules. */
  scrubSpan(span: Record<string, unknown>): void;
  /** For sessions: whether IP addresses must not be stored. */
  readonly scrubIpAddresses: boolean;
  /** Whether a rule names the attachment `filename` (`$attachments.'<filename>'`, `$attachments.**`, `$binary`). */
  attachmentRulesApply(filename: string): boolean;
  /** A text attachment after those rules (scrub/attachments.ts); null text: a rule removes it whole. */
  scrubAttachmentText(filename: string, text: string): { text: string | null; changed: boolean };
}

function decode(text: string | null): PiiConfig | null {
  if (text === null || text.trim() === "") return null;
  const parsed = parsePiiConfig(text);
  return parsed.ok ? parsed.config : null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

class CompiledScrubber implements Scrubber {
  readonly active: boolean;
  /** The configs' rule sets, applied in one walk (compiled.ts `combineConfigs`), or null when there are none. */
  private readonly config: CompiledConfig | null;
  constructor(
    configs: CompiledConfig[],
    private readonly graphql: boolean,
    readonly scrubIpAddresses: boolean,
  ) {
    const used = configs.filter((c) => c.applications.length > 0);
    this.config = used.length > 0 ? combineConfigs(used) : null;
    this.active = this.config !== null || graphql;
  }

  private run(item: Record<string, unknown>, root: typeof EVENT | typeof SPAN_ROOT, graphql: boolean): void {
    if (!this.active || !isObject(item)) return;
    const meta = seedMeta(item._meta);
    const seeded = !isEmptyMeta(meta);
    try {
      if (graphql) scrubGraphql(item);
      if (this.config) processRoot(item, root as typeof EVENT & { kind: "struct" }, this.config, meta, root === SPAN_ROOT);
    } catch {
      // Never throws, and never stores what the rules did not reach: the item keeps only fields that hold no
      // personal data (fail-closed.ts).
      keepOnlySafeFields(item, root === SPAN_ROOT ? "span" : "event");
      return;
    }
    if (seeded || !isEmptyMeta(meta)) item._meta = mergeMeta(item._meta, meta);
  }

  scrubEvent(event: Record<string, unknown>): void {
    this.run(event, EVENT, this.graphql);
  }

  scrubSpan(span: Record<string, unknown>): void {
    this.run(span, SPAN_ROOT, false);
  }

  attachmentRulesApply(filename: string): boolean {
    return attachmentRulesApply(this.config ? [this.config] : [], filename);
  }

  scrubAttachmentText(filename: string, text: string): { text: string | null; changed: boolean } {
    return scrubAttachmentText(this.config ? [this.config] : [], filename, text);
  }
}

/** Organization's and project's options into what the digest applies (get_datascrubbing_settings and get_pii_config). */
export function effectiveScrubbing(org: ScrubbingOptions, project: ScrubbingOptions): Scrubber {
  const advanced = mergePiiConfigs(decode(org.relayPiiConfig), decode(project.relayPiiConfig));
  const settings = mergeDatascrubbing(org, project);
  const legacy = toPiiConfig(settings);
  const configs: CompiledConfig[] = [];
  if (advanced) configs.push(compileConfig(advanced));
  if (legacy) configs.push(compileParsed(legacy.config, legacy.applications));
  return new CompiledScrubber(configs, settings.scrubData, settings.scrubIpAddresses);
}

/** One rule set alone (the settings screen's preview): applies just this relayPiiConfig to a copy of the event. */
export function previewPiiConfig(event: Record<string, unknown>, config: PiiConfig): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(event)) as Record<string, unknown>;
  new CompiledScrubber([compileConfig(config)], false, false).scrubEvent(copy);
  return copy;
}
