// GET /api/0/organizations/{org}/projects/
import { getOrgAccess } from "@/core/access";
import { pageRequest } from "@/core/pagination";
import { listProjects } from "@/core/projects";
import { apiRoute, paged } from "@/web/api/handler";
import { projectViews } from "@/web/api/views";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string }>("org:read", async (ctx) => {
  const page = await listProjects(
    ctx.core,
    ctx.params.org,
    pageRequest("slug:id", { cursor: ctx.url.searchParams.get("cursor"), limit: ctx.url.searchParams.get("per_page") ?? undefined }),
  );
  const access = await getOrgAccess(ctx.core, ctx.params.org);
  return paged(await projectViews(ctx.core, page.items, new Map([[access.org.id, access]])), page.nextCursor, ctx);
});
