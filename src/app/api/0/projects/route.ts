// GET /api/0/projects/ – every project the caller can see.
import { getOrgAccess, type OrgAccess } from "@/core/access";
import { pageRequest } from "@/core/pagination";
import { listAllProjects } from "@/core/projects";
import { apiRoute, paged } from "@/web/api/handler";
import { projectViews } from "@/web/api/views";

export const dynamic = "force-dynamic";

export const GET = apiRoute("project:read", async (ctx) => {
  const page = await listAllProjects(
    ctx.core,
    pageRequest("slug:id", { cursor: ctx.url.searchParams.get("cursor"), limit: ctx.url.searchParams.get("per_page") ?? undefined }),
  );
  const accessByOrg = new Map<number, OrgAccess>();
  for (const orgId of new Set(page.items.map((p) => p.organizationId))) {
    const org = await ctx.core.store.getOrganizationById(orgId);
    if (org) accessByOrg.set(orgId, await getOrgAccess(ctx.core, org.slug));
  }
  return paged(await projectViews(ctx.core, page.items, accessByOrg), page.nextCursor, ctx);
});
