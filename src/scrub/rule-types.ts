// The shapes of Relay's PII rules (relay-pii src/config.rs, redactions.rs): a rule's type and redaction, and a whole
// config. Shared by the config's parser (config.ts) and the built-in rules (builtin.ts), which config.ts reads.

export type Redaction = { method: "default" } | { method: "remove" } | { method: "replace"; text: string } | { method: "mask" } | { method: "hash" };

export const SIMPLE_RULE_TYPES = [
  "anything",
  "imei",
  "mac",
  "uuid",
  "email",
  "ip",
  "creditcard",
  "iban",
  "userpath",
  "pemkey",
  "url_auth",
  "us_ssn",
  "bearer",
  "password",
] as const;
export type SimpleRuleType = (typeof SIMPLE_RULE_TYPES)[number];

export type RuleType =
  | { type: SimpleRuleType }
  | { type: "pattern"; pattern: string; replaceGroups: number[] | null }
  | { type: "redact_pair"; keyPattern: string; caseInsensitive?: boolean }
  | { type: "multiple"; rules: string[]; hideInner: boolean }
  | { type: "alias"; rule: string; hideInner: boolean };

export type RuleSpec = RuleType & { redaction: Redaction };

export type PiiConfig = {
  rules: Record<string, RuleSpec>;
  vars: { hashKey?: string };
  /** Selector text → rule ids, in the order given. */
  applications: Record<string, string[]>;
};
