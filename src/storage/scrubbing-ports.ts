// Data scrubbing settings (issue 18, migration 0025): the organization's and each project's options, stored as the
// JSON text core/data-scrubbing.ts writes (null: the defaults). The digest reads both for every project of a batch.

/** Whose options: an organization's (they bind every project of it), or one project's. */
export type ScrubbingOwner = { organizationId: number } | { projectId: number };

/** A project's stored options and its organization's, as JSON texts (null: the defaults). */
export type StoredScrubbing = { organization: string | null; project: string | null };

export interface ScrubbingSettingsStore {
  /** The owner's stored options (null: never set, or the owner does not exist). */
  getDataScrubbing(owner: ScrubbingOwner): Promise<string | null>;
  /** Stores the owner's options (null: back to the defaults). */
  setDataScrubbing(owner: ScrubbingOwner, options: string | null): Promise<void>;
  /** For each of these projects that exists: its options and its organization's, in one query. */
  dataScrubbingOfProjects(projectIds: readonly number[]): Promise<Map<number, StoredScrubbing>>;
}
