// Data scrubbing options (issue 18) as stored and as the API takes them: Sentry's field names and defaults, the
// checks of a change, and the lenient reading of stored options. No access checks here: the digest reads this too
// (digest/scrubbers.ts); core/data-scrubbing.ts is the service the API and the screens call.
import { z } from "zod";
import { SCRUBBING_SETTINGS_LIMITS as L } from "../config/limits";
import { type ScrubbingOptions, parsePiiConfig } from "../scrub";
import { AppError } from "./errors";
import { parseInput } from "./schemas";

export type { ScrubbingOptions } from "../scrub";

export const PROJECT_SCRUBBING_DEFAULTS: ScrubbingOptions = {
  dataScrubber: true,
  dataScrubberDefaults: true,
  sensitiveFields: [],
  safeFields: [],
  scrubIPAddresses: false,
  relayPiiConfig: null,
};
export const ORGANIZATION_SCRUBBING_DEFAULTS: ScrubbingOptions = {
  dataScrubber: false,
  dataScrubberDefaults: false,
  sensitiveFields: [],
  safeFields: [],
  scrubIPAddresses: false,
  relayPiiConfig: null,
};

/** The API's field names, in the order the screens show them. */
export const SCRUBBING_FIELDS = [
  "dataScrubber",
  "dataScrubberDefaults",
  "sensitiveFields",
  "safeFields",
  "scrubIPAddresses",
  "relayPiiConfig",
] as const satisfies readonly (keyof ScrubbingOptions)[];

const fieldList = z
  .array(z.string({ error: "Field names are text" }).max(L.fieldLength, `At most ${L.fieldLength} characters per field`), { error: "A list of field names" })
  .max(L.fieldsPerList, `At most ${L.fieldsPerList} fields`)
  // Sentry's settings form takes one per line; blank lines and surrounding spaces are not fields.
  .transform((list) => [...new Set(list.map((f) => f.trim()).filter((f) => f.length > 0))]);

const patchSchema = z.object({
  dataScrubber: z.boolean({ error: "dataScrubber is true or false" }).optional(),
  dataScrubberDefaults: z.boolean({ error: "dataScrubberDefaults is true or false" }).optional(),
  sensitiveFields: fieldList.optional(),
  safeFields: fieldList.optional(),
  scrubIPAddresses: z.boolean({ error: "scrubIPAddresses is true or false" }).optional(),
  // Relay's rules as JSON text, as Sentry's API takes them; empty or null: no advanced rules.
  relayPiiConfig: z.string({ error: "relayPiiConfig is JSON text" }).nullable().optional(),
});
export type ScrubbingPatch = z.output<typeof patchSchema>;

/** Stored options (JSON text, possibly from an older version) read leniently over the defaults: the digest never fails on them. */
export function readScrubbingOptions(text: string | null, defaults: ScrubbingOptions): ScrubbingOptions {
  if (!text) return defaults;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return defaults;
  }
  const parsed = patchSchema.safeParse(raw);
  return parsed.success ? withPatch(defaults, parsed.data) : defaults;
}

export function withPatch(current: ScrubbingOptions, patch: ScrubbingPatch): ScrubbingOptions {
  const next = { ...current };
  for (const key of SCRUBBING_FIELDS) if (patch[key] !== undefined) (next as Record<string, unknown>)[key] = patch[key];
  if (typeof next.relayPiiConfig === "string" && next.relayPiiConfig.trim() === "") next.relayPiiConfig = null;
  return next;
}

/** Whether a request body names any of the data scrubbing fields (the rest of it is the organization's or project's own). */
export const hasScrubbingFields = (input: unknown): boolean => typeof input === "object" && input !== null && SCRUBBING_FIELDS.some((k) => k in input);

/** The data scrubbing fields of a request body, checked; relayPiiConfig must be rules Relay would take. */
export function parseScrubbingPatch(input: unknown): ScrubbingPatch {
  const body =
    typeof input === "object" && input !== null
      ? Object.fromEntries(Object.entries(input).filter(([k]) => (SCRUBBING_FIELDS as readonly string[]).includes(k)))
      : {};
  const patch = parseInput(patchSchema, body);
  if (typeof patch.relayPiiConfig === "string" && patch.relayPiiConfig.trim() !== "") {
    const checked = parsePiiConfig(patch.relayPiiConfig);
    if (!checked.ok) throw new AppError("bad_request", `Invalid relayPiiConfig: ${checked.error}`, { relayPiiConfig: [checked.error] }, true);
  }
  return patch;
}
