// The grouping config `newstyle:2023-01-11`: Sentry's default grouping from 2023 on. Normalizes
// the event's frames, applies the built-in stack trace rules, runs the strategies in score order
// (chained-exception > threads > stacktrace > template > csp > hpkp > expect-staple > expect-ct >
// message), then applies the client
// fingerprint and the fallback (getsentry/sentry src/sentry/grouping/strategies/configurations.py,
// api.py `get_grouping_variants_for_event`, stacktraces/processing.py
// `normalize_stacktraces_for_grouping`, `_normalize_in_app`).
import { component, getHash, update } from "./component";
import type { StrategyContext } from "./context";
import { isObj, obj, str, type Obj } from "./event";
import { applyModifications, loadEnhancements } from "./enhancements/apply";
import { NATIVE_RULES } from "./enhancements/newstyle-2023-01-11-native";
import { SDK_RULES } from "./enhancements/newstyle-2023-01-11-sdk";
import { fingerprintType, readFingerprint, resolveFingerprintValues, saltedHash, type FingerprintEventView } from "./fingerprint";
import { normalizeExceptions, normalizeLogentry, normalizeStacktrace, normalizeThreads, type GFrame } from "./normalize";
import { chainedExceptionVariants, messageVariants, templateVariants, threadsVariants } from "./strategies";
import { cspVariants, hostnameReportVariants } from "./security";
import { stacktraceVariants } from "./stacktrace";
import type { GroupingConfig, GroupingResult, GroupingVariant } from "./types";
import { componentTrees, type Strategy } from "./variants";

export const NEWSTYLE_2023_01_11 = "newstyle:2023-01-11";

const ENHANCEMENTS = loadEnhancements(NATIVE_RULES, SDK_RULES);

function prepareFrames(frames: GFrame[] | null, platform: string): void {
  if (frames === null) return;
  applyModifications(ENHANCEMENTS, frames, platform);
  for (const f of frames) if (f.in_app === null) f.in_app = false;
}

function group(input: unknown): GroupingResult {
  const event: Obj = isObj(input) ? input : {};
  const platform = str(event.platform) ?? "other";
  const exceptions = normalizeExceptions(event);
  const threads = normalizeThreads(event);
  const topFrames = normalizeStacktrace(event.stacktrace);
  const logentry = normalizeLogentry(event);
  const template = obj(event.template);
  for (const e of exceptions) prepareFrames(e.frames, platform);
  for (const t of threads) prepareFrames(t.frames, platform);
  prepareFrames(topFrames, platform);

  const ctx: StrategyContext = {
    eventPlatform: platform,
    frame: {
      javascriptFuzzing: true,
      contextlinePlatforms: new Set(["javascript", "node", "python", "php", "ruby"]),
      phpDetectAnonymousClasses: true,
    },
    enhancements: ENHANCEMENTS,
  };
  const strategies: Strategy[] = [
    {
      name: "exception",
      stacktraceVariantsOnly: true,
      run: (c) => chainedExceptionVariants(exceptions, c),
    },
    {
      name: "threads",
      stacktraceVariantsOnly: true,
      run: (c) => (threads.length > 0 ? threadsVariants(threads, c) : null),
    },
    {
      name: "stacktrace",
      stacktraceVariantsOnly: true,
      run: (c) => (topFrames !== null ? stacktraceVariants(topFrames, c) : null),
    },
    {
      name: "template",
      stacktraceVariantsOnly: false,
      run: () => (template ? templateVariants(str(template.filename), str(template.context_line)) : null),
    },
    { name: "csp", stacktraceVariantsOnly: false, run: () => cspVariants(event) },
    ...(["hpkp", "expect-staple", "expect-ct"] as const).map((id) => ({
      name: id,
      stacktraceVariantsOnly: false,
      run: () => hostnameReportVariants(event, id),
    })),
    {
      name: "message",
      stacktraceVariantsOnly: false,
      run: () => (logentry !== null ? messageVariants(logentry) : null),
    },
  ];
  const trees = componentTrees(strategies, ctx);

  const view: FingerprintEventView = {
    event,
    logentry,
    exceptions,
    crashFrames: exceptions[exceptions.length - 1]?.frames ?? topFrames ?? (threads.length === 1 ? threads[0]?.frames : null) ?? [],
  };
  const fingerprint = readFingerprint(event.fingerprint);
  const fpType = fingerprintType(fingerprint);
  const variants: Record<string, GroupingVariant> = {};
  if (fpType === "custom" && fingerprint !== null) {
    for (const [name, root] of trees) {
      update(root, { contributes: false, hint: "custom fingerprint takes precedence" });
      variants[name] = { type: "component", hash: null, contributes: false, component: root };
    }
    const values = resolveFingerprintValues(fingerprint, view);
    const fp = component("custom-fingerprint", { values, hint: "custom client fingerprint" });
    variants.custom_fingerprint = { type: "custom_fingerprint", hash: getHash(fp), contributes: true, component: fp };
  } else if (fpType === "hybrid" && fingerprint !== null) {
    const values = resolveFingerprintValues(fingerprint, view);
    for (const [name, root] of trees) {
      const hash = saltedHash(values, root);
      variants[name] = { type: "salted_component", hash, contributes: root.contributes, component: root };
    }
  } else {
    for (const [name, root] of trees) {
      variants[name] = { type: "component", hash: getHash(root), contributes: root.contributes, component: root };
    }
  }
  if (!Object.values(variants).some((v) => v.contributes)) {
    const fb = component("fallback", { contributes: true, hint: "nothing else contributes" });
    variants.fallback = { type: "fallback", hash: getHash(fb), contributes: true, component: fb };
  }
  const ordered = Object.entries(variants).sort(([a], [b]) => (a === "system" ? 1 : 0) - (b === "system" ? 1 : 0));
  const hashes: string[] = [];
  for (const [, v] of ordered) if (v.hash !== null && !hashes.includes(v.hash)) hashes.push(v.hash);
  return { config: NEWSTYLE_2023_01_11, variants, hashes };
}

/** The security reports' interfaces (security.ts), which group reads from the event as they are. */
const REPORT_KEYS = ["csp", "hpkp", "expectstaple", "expectct"] as const;

/**
 * What group reads of an event before its rules and strategies run, all of them pure: the platform, the exceptions,
 * threads, stacktrace and message as normalize.ts reads them, and the template. Events with a custom or hybrid
 * fingerprint (whose variables read more of the event) or a security report have none.
 */
function key(input: unknown): string | null {
  const event: Obj = isObj(input) ? input : {};
  const fpType = fingerprintType(readFingerprint(event.fingerprint));
  if (fpType === "custom" || fpType === "hybrid") return null;
  if (REPORT_KEYS.some((k) => isObj(event[k]))) return null;
  const template = obj(event.template);
  return JSON.stringify([
    str(event.platform) ?? "other",
    normalizeExceptions(event),
    normalizeThreads(event),
    normalizeStacktrace(event.stacktrace),
    normalizeLogentry(event),
    template ? [str(template.filename), str(template.context_line)] : null,
  ]);
}

export const newstyle20230111: GroupingConfig = { id: NEWSTYLE_2023_01_11, group, key };
