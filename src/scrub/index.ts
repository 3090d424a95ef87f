// Faultline's data scrubbing (issue 18): a TypeScript port of Sentry Relay's PII processor (relay-pii), applied by the
// digest to every stored item before grouping. Two configs run in order, as in Relay: the advanced rules
// (organization and project `relayPiiConfig`, merged as Sentry's `get_pii_config`), then the legacy settings
// converted by `to_pii_config`. Every scrubbed value leaves Relay's remark in the event's `_meta`.
import { combineConfigs, compileConfig, compileParsed, type CompiledConfig } from "./compiled";
import { parsePiiConfig, type PiiConfig } from "./config";
import { mergeDatascrubbing, mergePiiConfigs, toPiiConfig } from "./legacy";
import { isEmptyMeta, mergeMeta, seedMeta } from "./meta";
import { EVENT, LOG_ROOT, LOG_VALUES_ROOT, SPAN_ROOT } from "./pii-fields";
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
  /**
   * Scrubs a structured log (Relay's OurLog: body, attributes as {key: {type, value}}) in place, as Relay's eap::scrub:
   * advanced rules see `$log.attributes.KEY.value`, the default and legacy rules an attribute's value under its key.
   * Remarks go into log._meta. Never throws.
   */
  scrubLog(log: Record<string, unknown>): void;
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

/** The configs made from the legacy settings (dataScrubber, sensitive fields…), which see log attributes by value. */
const LEGACY_CONFIGS = new WeakSet<CompiledConfig>();

type LogAttributes = Record<string, { type: string; value: unknown }>;

/** Runs a legacy config over a log's attribute values seen under their keys, and writes what it changed back. */
function scrubLogValues(log: Record<string, unknown>, config: CompiledConfig, meta: ReturnType<typeof seedMeta>): void {
  const attributes = (isObject(log.attributes) ? log.attributes : {}) as LogAttributes;
  const values: Record<string, unknown> = {};
  for (const [k, a] of Object.entries(attributes)) values[k] = a.value;
  const view: Record<string, unknown> = { body: log.body, attributes: values };
  processRoot(view, LOG_VALUES_ROOT as typeof EVENT & { kind: "struct" }, config, meta, true);
  log.body = typeof view.body === "string" ? view.body : "";
  for (const [k, a] of Object.entries(attributes)) {
    const now = (view.attributes as Record<string, unknown>)[k];
    if (now === undefined || now === null) delete attributes[k];
    else if (now !== a.value) attributes[k] = { type: typeof now === "string" ? "string" : a.type, value: now };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

class CompiledScrubber implements Scrubber {
  readonly active: boolean;
  /** The configs' rule sets, applied in one walk (compiled.ts `combineConfigs`), or null when there are none. */
  private readonly config: CompiledConfig | null;
  /** The same rule sets apart, for logs: the legacy ones see attributes by value (scrubLog). */
  private readonly parts: CompiledConfig[];
  constructor(
    configs: CompiledConfig[],
    private readonly graphql: boolean,
    readonly scrubIpAddresses: boolean,
  ) {
    const used = configs.filter((c) => c.applications.length > 0);
    this.parts = used;
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

  scrubLog(log: Record<string, unknown>): void {
    if (this.parts.length === 0 || !isObject(log)) return;
    const meta = seedMeta(log._meta);
    try {
      for (const config of this.parts) {
        if (LEGACY_CONFIGS.has(config)) scrubLogValues(log, config, meta);
        else processRoot(log, LOG_ROOT as typeof EVENT & { kind: "struct" }, config, meta, true);
      }
    } catch {
      // As keepOnlySafeFields: nothing the rules had not reached is stored; the line keeps its level, time and trace.
      log.body = "";
      log.attributes = {};
      log._meta = { "": { err: [["invalid_data", { reason: "data scrubbing failed: the log's body and attributes were removed" }]] } };
      return;
    }
    if (!isEmptyMeta(meta)) log._meta = mergeMeta(log._meta, meta);
  }
}

/** Organization's and project's options into what the digest applies (get_datascrubbing_settings and get_pii_config). */
export function effectiveScrubbing(org: ScrubbingOptions, project: ScrubbingOptions): Scrubber {
  const advanced = mergePiiConfigs(decode(org.relayPiiConfig), decode(project.relayPiiConfig));
  const settings = mergeDatascrubbing(org, project);
  const legacy = toPiiConfig(settings);
  const configs: CompiledConfig[] = [];
  if (advanced) configs.push(compileConfig(advanced));
  if (legacy) {
    const compiled = compileParsed(legacy.config, legacy.applications);
    LEGACY_CONFIGS.add(compiled);
    configs.push(compiled);
  }
  return new CompiledScrubber(configs, settings.scrubData, settings.scrubIpAddresses);
}

/** One rule set alone (the settings screen's preview): applies just this relayPiiConfig to a copy of the event. */
export function previewPiiConfig(event: Record<string, unknown>, config: PiiConfig): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(event)) as Record<string, unknown>;
  new CompiledScrubber([compileConfig(config)], false, false).scrubEvent(copy);
  return copy;
}
