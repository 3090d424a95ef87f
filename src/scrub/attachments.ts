// Data scrubbing of attachments (relay-pii attachments.rs `PiiAttachmentsProcessor`): an attachment is scrubbed as the
// value at `$attachments.<filename>`, of value type binary, with personal data "true", so a rule applies to it only
// when its selector names attachments (`$attachments.'foo.txt'`, `$attachments.**`, `$binary`); the legacy settings
// and the rules of event fields never reach it. Faultline applies the rules to text attachments as text (the
// rules' own redactions); Relay also scrubs binary files bytewise, which Faultline does not: a binary attachment a
// rule names is not stored at all (digest/attachments.ts), rather than stored unscrubbed.
import type { CompiledConfig } from "./compiled";
import { applyRule, DELETE, working } from "./redact";
import { PII_FALSE, PII_TRUE, VT, type State } from "./selector";

/** As Relay: the root, an unnamed state of type attachments below it, and the file by its name (binary, pii true). */
function stateOf(filename: string): State {
  const root: State = { parent: null, key: null, index: -1, pii: PII_FALSE, types: 0, depth: 0 };
  const attachments: State = { parent: root, key: "", index: -1, pii: PII_FALSE, types: VT.attachments, depth: 1 };
  return { parent: attachments, key: undefined, rawKey: filename, index: -1, pii: PII_TRUE, types: VT.binary, depth: 2 };
}

/** Whether any rule of these configs applies to the attachment named `filename`. */
export function attachmentRulesApply(configs: readonly CompiledConfig[], filename: string): boolean {
  const state = stateOf(filename);
  return configs.some((c) => c.applications.some((a) => a.test(state)));
}

/** The text after the rules that apply to `filename`; null when a rule removes it whole. */
export function scrubAttachmentText(configs: readonly CompiledConfig[], filename: string, text: string): { text: string | null; changed: boolean } {
  const state = stateOf(filename);
  const w = working(text, [], undefined);
  for (const config of configs) {
    for (const app of config.applications) {
      if (!app.test(state)) continue;
      for (const rule of app.rules) if (applyRule(rule, filename, w) === DELETE) return { text: null, changed: true };
    }
  }
  return { text: w.value, changed: w.changed };
}
