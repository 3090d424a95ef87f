// Data scrubbing settings (issue 18): an organization's and each project's, with Sentry's field names (dataScrubber,
// dataScrubberDefaults, sensitiveFields, safeFields, scrubIPAddresses, relayPiiConfig) so that a configuration carries
// over from Sentry's API. The digest applies the stricter of the two (scrub/: an organization's "require" options are
// or-ed into every project's, field lists joined, its rules applied before the project's).
//
// Defaults, as Sentry's: a project scrubs the default sensitive keys and credit cards (dataScrubber and
// dataScrubberDefaults on); an organization requires nothing more (all off), so each project's own settings hold.
import { SCRUBBING_SETTINGS_LIMITS as L } from "../config/limits";
import { type PiiConfig, type ScrubbingOptions, parsePiiConfig, previewPiiConfig } from "../scrub";
import type { ScrubbingOwner } from "../storage/scrubbing-ports";
import type { Project } from "../storage/ports";
import { assertCan, requireOrg } from "./access";
import { audit } from "./audit";
import type { CoreContext } from "./context";
import { AppError, notFound } from "./errors";
import {
  ORGANIZATION_SCRUBBING_DEFAULTS,
  PROJECT_SCRUBBING_DEFAULTS,
  type ScrubbingPatch,
  parseScrubbingPatch,
  readScrubbingOptions,
  withPatch,
} from "./scrubbing-options";

export { hasScrubbingFields, parseScrubbingPatch } from "./scrubbing-options";
export type { ScrubbingOptions } from "../scrub";

const defaultsOf = (owner: ScrubbingOwner) => ("organizationId" in owner ? ORGANIZATION_SCRUBBING_DEFAULTS : PROJECT_SCRUBBING_DEFAULTS);

/** The owner's options as the API shows them. */
export async function scrubbingOptionsOf(ctx: CoreContext, owner: ScrubbingOwner): Promise<ScrubbingOptions> {
  return readScrubbingOptions(await ctx.store.getDataScrubbing(owner), defaultsOf(owner));
}

/**
 * Applies a checked patch to the owner's stored options (callers check the permission: org:update, project:update)
 * and records the change, old and new values of the options that changed, in the organization's audit trail.
 */
export async function storeScrubbingPatch(
  ctx: CoreContext,
  owner: ScrubbingOwner,
  patch: ScrubbingPatch,
  trail: { organizationId: number; what: string },
): Promise<ScrubbingOptions> {
  const before = await scrubbingOptionsOf(ctx, owner);
  const next = withPatch(before, patch);
  await ctx.store.setDataScrubbing(owner, JSON.stringify(next));
  const changed = (Object.keys(next) as (keyof ScrubbingOptions)[]).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(next[k]));
  if (changed.length > 0) {
    await audit(ctx, {
      organizationId: trail.organizationId,
      event: "projectId" in owner ? "project.edit" : "org.edit",
      target: "projectId" in owner ? owner.projectId : owner.organizationId,
      note: `changed the data scrubbing settings of ${trail.what}`,
      data: {
        settings: "dataScrubbing",
        old: Object.fromEntries(changed.map((k) => [k, before[k]])),
        new: Object.fromEntries(changed.map((k) => [k, next[k]])),
      },
    });
  }
  return next;
}

/** The organization's settings (org:update), from the API or the organization's settings screen. */
export async function updateOrganizationScrubbing(ctx: CoreContext, orgSlug: string, input: unknown): Promise<ScrubbingOptions> {
  const { org } = await requireOrg(ctx, orgSlug, "org:update");
  return storeScrubbingPatch(ctx, { organizationId: org.id }, parseScrubbingPatch(input), { organizationId: org.id, what: "the organization" });
}

/** The organization's settings, for those who may change them. */
export async function organizationScrubbing(ctx: CoreContext, orgSlug: string): Promise<ScrubbingOptions> {
  const { org } = await requireOrg(ctx, orgSlug, "org:read");
  return scrubbingOptionsOf(ctx, { organizationId: org.id });
}

/** What a rule set does to the project's newest event, for the settings screen's preview before saving. */
export type ScrubbingPreview = { eventId: string; before: Record<string, unknown>; after: Record<string, unknown> } | null;

/** Applies `relayPiiConfig` (checked as the API checks it) to a copy of the project's newest error event. project:update. */
export async function previewScrubbing(ctx: CoreContext, orgSlug: string, project: Project, relayPiiConfig: string): Promise<ScrubbingPreview> {
  const access = await requireOrg(ctx, orgSlug, "project:read");
  assertCan(access, "project:update");
  if (project.organizationId !== access.org.id) throw notFound("Project");
  const checked = parsePiiConfig(relayPiiConfig);
  if (!checked.ok) throw new AppError("bad_request", `Invalid relayPiiConfig: ${checked.error}`, { relayPiiConfig: [checked.error] }, true);
  const page = await ctx.store.listEvents(project.id, "errors", { limit: L.previewEvents, cursor: null });
  const newest = page.items[0];
  if (!newest) return null;
  const before = JSON.parse(newest.data) as Record<string, unknown>;
  return { eventId: newest.eventId, before, after: previewPiiConfig(before, checked.config as PiiConfig) };
}
