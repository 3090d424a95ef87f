// GET /api/0/issues/{id}/ – one issue in Sentry's shape.
import { getIssue } from "@/core/issues";
import { apiRoute } from "@/web/api/handler";
import { issueResponse } from "@/web/api/issue-response";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ issueId: string }>(async (ctx) => Response.json(await issueResponse(ctx.core, await getIssue(ctx.core, ctx.params.issueId), ctx)));
