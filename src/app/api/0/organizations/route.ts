// GET|POST /api/0/organizations/ – organizations of the caller; create one.
import { createOrganization, listOrganizations } from "@/core/organizations";
import { pageRequest } from "@/core/pagination";
import { apiRoute, paged, readJson } from "@/web/api/handler";
import { serializeOrganization } from "@/web/api/serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute("org:read", async (ctx) => {
  const page = await listOrganizations(
    ctx.core,
    pageRequest("slug", { cursor: ctx.url.searchParams.get("cursor"), limit: ctx.url.searchParams.get("per_page") ?? undefined }),
  );
  return paged(
    page.items.map((o) => serializeOrganization(o)),
    page.nextCursor,
    ctx,
  );
});

export const POST = apiRoute("org:write", async (ctx) => {
  const org = await createOrganization(ctx.core, await readJson(ctx.req));
  return Response.json(serializeOrganization(org, { role: "owner" }), { status: 201 });
});
