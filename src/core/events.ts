// Reading stored events: the list of a project's events, newest first.
import type { Page, PageRequest, StoredEvent } from "../storage/ports";
import { assertCan } from "./access";
import type { CoreContext } from "./context";
import { getProject } from "./projects";

export async function listProjectEvents(ctx: CoreContext, orgSlug: string, projectSlug: string, page: PageRequest): Promise<Page<StoredEvent>> {
  const { access, project } = await getProject(ctx, orgSlug, projectSlug);
  assertCan(access, "event:read");
  return ctx.store.listEvents(project.id, "errors", page);
}
