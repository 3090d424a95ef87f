// GET /api/0/organizations/{org}/repos/ – repositories linked through integrations: Faultline has none, so the list
// is empty and sentry-cli's set-commits reads commits from the local git checkout (--local) instead.
import { getOrganization } from "@/core/organizations";
import { apiRoute, paged } from "@/web/api/handler";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string }>("org:read", async (ctx) => {
  await getOrganization(ctx.core, ctx.params.org);
  return paged([], null, ctx);
});
