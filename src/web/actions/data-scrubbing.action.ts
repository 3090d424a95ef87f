"use server";
// The data scrubbing settings screens (organization and project): the options form, the advanced rules ("[Method]
// [Type] from [Source]" added and removed, or the whole relayPiiConfig as JSON) and a rule's preview on the project's
// newest event. Thin: the core checks permissions and input (core/data-scrubbing.ts, core/pii-rules.ts).
import { revalidatePath } from "next/cache";
import { getTranslations } from "next-intl/server";
import { previewScrubbing, scrubbingOptionsOf, updateOrganizationScrubbing } from "../../core/data-scrubbing";
import { type NewScreenRule, scrubbedChanges, withRule, withoutRule } from "../../core/pii-rules";
import { getProject, updateProject } from "../../core/projects";
import { requireOrg } from "../../core/access";
import type { CoreContext } from "../../core/context";
import { SCRUBBING_SETTINGS_LIMITS } from "../../config/limits";
import { act } from "./act";
import { type ActionState, isForm, NOT_A_FORM } from "./result";

/** Whose settings a form changes: the organization's, or one project's. */
export type ScrubbingTarget = { org: string; project?: string };

/** A target as the request carries it (a bound argument: anything, when crafted by hand; null read as one was a 500). */
const isTarget = (t: unknown): t is ScrubbingTarget =>
  typeof t === "object" &&
  t !== null &&
  typeof (t as ScrubbingTarget).org === "string" &&
  ((t as ScrubbingTarget).project === undefined || typeof (t as ScrubbingTarget).project === "string");

const NOT_A_TARGET: ActionState = { status: "error", message: "The settings to change could not be read" };

/** The options form: checkboxes ("on" or absent) and the field lists, one per line. */
function optionsFrom(form: FormData) {
  const lines = (name: string) => String(form.get(name) ?? "").split(/\r?\n/);
  return {
    dataScrubber: form.get("dataScrubber") === "on",
    dataScrubberDefaults: form.get("dataScrubberDefaults") === "on",
    scrubIPAddresses: form.get("scrubIPAddresses") === "on",
    sensitiveFields: lines("sensitiveFields"),
    safeFields: lines("safeFields"),
  };
}

async function save(core: CoreContext, target: ScrubbingTarget, patch: Record<string, unknown>): Promise<void> {
  if (target.project) await updateProject(core, target.org, target.project, patch);
  else await updateOrganizationScrubbing(core, target.org, patch);
}

async function currentConfig(core: CoreContext, target: ScrubbingTarget): Promise<string | null> {
  if (target.project) {
    const { project } = await getProject(core, target.org, target.project);
    return (await scrubbingOptionsOf(core, { projectId: project.id })).relayPiiConfig;
  }
  const { org } = await requireOrg(core, target.org, "org:read");
  return (await scrubbingOptionsOf(core, { organizationId: org.id })).relayPiiConfig;
}

const pathOf = (locale: string, target: ScrubbingTarget) =>
  target.project ? `/${locale}/orgs/${target.org}/projects/${target.project}/settings/scrubbing` : `/${locale}/orgs/${target.org}/settings/scrubbing`;

export async function saveScrubbingOptionsAction(locale: string, target: ScrubbingTarget, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isTarget(target)) return NOT_A_TARGET;
  if (!isForm(form)) return NOT_A_FORM;
  const state = await act(locale, (core) => save(core, target, optionsFrom(form)));
  revalidatePath(pathOf(locale, target));
  return state;
}

/** The whole relayPiiConfig as JSON (empty: no advanced rules). */
export async function saveRelayPiiConfigAction(locale: string, target: ScrubbingTarget, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isTarget(target)) return NOT_A_TARGET;
  if (!isForm(form)) return NOT_A_FORM;
  const text = String(form.get("relayPiiConfig") ?? "").trim();
  const state = await act(locale, (core) => save(core, target, { relayPiiConfig: text === "" ? null : text }));
  revalidatePath(pathOf(locale, target));
  return state;
}

const ruleFrom = (form: FormData): NewScreenRule => ({
  source: String(form.get("source") ?? "").trim(),
  type: String(form.get("type") ?? "") as NewScreenRule["type"],
  method: String(form.get("method") ?? "") as NewScreenRule["method"],
  pattern: String(form.get("pattern") ?? ""),
  placeholder: String(form.get("placeholder") ?? ""),
});

/**
 * Adds a rule ("intent" = "add"), or previews the settings with it on the project's newest event ("intent" =
 * "preview"): the preview's changes come back in `data`, path by path, and nothing is saved.
 */
export async function addScrubbingRuleAction(locale: string, target: ScrubbingTarget, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isTarget(target)) return NOT_A_TARGET;
  if (!isForm(form)) return NOT_A_FORM;
  const rule = ruleFrom(form);
  const preview = form.get("intent") === "preview";
  const state = await act(locale, async (core) => {
    const next = withRule(await currentConfig(core, target), rule);
    if (!preview) return save(core, target, { relayPiiConfig: next });
    const t = await getTranslations({ locale, namespace: "scrubbing" });
    if (!target.project) return { status: "ok", message: t("previewNoProject") };
    const { project } = await getProject(core, target.org, target.project);
    const result = await previewScrubbing(core, target.org, project, next);
    if (!result) return { status: "ok", message: t("previewNoEvents") };
    const changes = scrubbedChanges(result.before, result.after, SCRUBBING_SETTINGS_LIMITS.previewChanges);
    return {
      status: "ok",
      message: changes.length === 0 ? t("previewNoChanges", { event: result.eventId }) : t("previewChanges", { event: result.eventId, count: changes.length }),
      data: Object.fromEntries(changes.map((c) => [c.path, `${c.path}: ${c.before} → ${c.after || t("removed")}`])),
    };
  });
  if (!preview) revalidatePath(pathOf(locale, target));
  return state;
}

export async function removeScrubbingRuleAction(locale: string, target: ScrubbingTarget, _prev: ActionState, form: FormData): Promise<ActionState> {
  if (!isTarget(target)) return NOT_A_TARGET;
  if (!isForm(form)) return NOT_A_FORM;
  const id = String(form.get("id") ?? "");
  const source = String(form.get("source") ?? "");
  const state = await act(locale, async (core) => save(core, target, { relayPiiConfig: withoutRule(await currentConfig(core, target), id, source) }));
  revalidatePath(pathOf(locale, target));
  return state;
}
