// The internal project: where Faultline reports its own errors and page loads (self-monitoring). Migration 0014
// creates it in an organization of its own with no members, so install superusers (who see every organization) see
// its issue stream and nobody else does. Found through the "internal_project" instance setting; its key is the first
// active one, so disabling every key of the project stops self-monitoring as it would stop any SDK.
import { INTERNAL_PROJECT_SETTING } from "../storage/migrations/0014-internal-project";
import type { Organization, Project, ProjectKey, Store } from "../storage/ports";
import { buildDsn } from "./keys";

export type InternalProject = { organization: Organization; project: Project; key: ProjectKey | null };

/** The internal project with its organization and first active key; null when the project has been deleted. */
export async function findInternalProject(store: Store): Promise<InternalProject | null> {
  const id = Number(await store.getSetting(INTERNAL_PROJECT_SETTING));
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  const project = await store.getProjectById(id);
  const organization = project ? await store.getOrganizationById(project.organizationId) : null;
  if (!project || !organization) return null;
  const key = (await store.listKeys(project.id)).find((k) => k.isActive) ?? null;
  return { organization, project, key };
}

/** The public DSN Faultline's own SDKs send with; null without the project or an active key. */
export async function internalDsn(store: Store, publicUrl: string, basePath: string): Promise<string | null> {
  const internal = await findInternalProject(store);
  return internal?.key ? buildDsn(publicUrl, basePath, internal.key, internal.project).public : null;
}
