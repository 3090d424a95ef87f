// The data scrubbing the digest applies (issue 18), per project of a batch: its organization's and its own options
// (read for every batch, one query, so a change holds from the next batch on) compiled into a Scrubber (scrub/) once per
// distinct pair of stored texts and kept while they stay the same. Scrubbing comes right after normalization: before
// symbolication, grouping, tags, user keys and storage see the event, as Relay scrubs before Sentry stores.
import { DIGEST_LIMITS } from "../config/limits";
import { ORGANIZATION_SCRUBBING_DEFAULTS, PROJECT_SCRUBBING_DEFAULTS, readScrubbingOptions } from "../core/scrubbing-options";
import { type Scrubber, effectiveScrubbing } from "../scrub";
import type { ScrubbingSettingsStore, StoredScrubbing } from "../storage/scrubbing-ports";

/** A project's scrubber; null: nothing would be scrubbed (every option off, no rules). */
export type ScrubberOf = (projectId: number) => Scrubber | null;

const compiled = new Map<string, Scrubber>();

function scrubberFor(stored: StoredScrubbing): Scrubber {
  const key = `${stored.organization ?? ""}\u0000${stored.project ?? ""}`;
  let scrubber = compiled.get(key);
  if (!scrubber) {
    scrubber = effectiveScrubbing(
      readScrubbingOptions(stored.organization, ORGANIZATION_SCRUBBING_DEFAULTS),
      readScrubbingOptions(stored.project, PROJECT_SCRUBBING_DEFAULTS),
    );
    // Settings change rarely; a cache past its bound starts again rather than growing with every change ever made.
    if (compiled.size >= DIGEST_LIMITS.scrubberCacheEntries) compiled.clear();
    compiled.set(key, scrubber);
  }
  return scrubber;
}

/** The scrubbers of these projects, from their stored settings. */
export async function scrubbersOf(store: Pick<ScrubbingSettingsStore, "dataScrubbingOfProjects">, projectIds: Iterable<number>): Promise<ScrubberOf> {
  const stored = await store.dataScrubbingOfProjects([...projectIds]);
  const byProject = new Map<number, Scrubber | null>();
  for (const [id, s] of stored) {
    const scrubber = scrubberFor(s);
    byProject.set(id, scrubber.active ? scrubber : null);
  }
  // Made per batch and called per record: bound, so that its code outlives the batch, as an arrow's would not
  // (storage/kysely/batch-rows.ts sumBy).
  return projectScrubber.bind(null, byProject);
}

/** A project's scrubber; a project without settings rows (deleted since: its rows are dropped anyway) gets the defaults. */
function projectScrubber(byProject: Map<number, Scrubber | null>, projectId: number): Scrubber | null {
  return byProject.has(projectId) ? byProject.get(projectId)! : defaultScrubber();
}

function defaultScrubber(): Scrubber | null {
  const scrubber = scrubberFor({ organization: null, project: null });
  return scrubber.active ? scrubber : null;
}
