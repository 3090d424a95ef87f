// GET|POST /api/0/projects/{org}/{project}/user-feedback/ – user reports (issue 19): POST as Sentry's deprecated
// endpoint (DSN or token), GET the project's feedback in Sentry's UserReport shape.
import { FEEDBACK_LIMITS } from "@/config/limits";
import { listProjectFeedback, serializeUserReport, submitUserFeedback } from "@/core/feedback-submit";
import { AppError } from "@/core/errors";
import { apiRoute, readCappedBytes } from "@/web/api/handler";
import { toErrorResponse } from "@/web/api/errors";
import { getServices } from "@/runtime/services";

export const dynamic = "force-dynamic";
type P = { org: string; project: string };

async function body(req: Request): Promise<Record<string, unknown>> {
  const text = (await readCappedBytes(req, FEEDBACK_LIMITS.maxApiBody)).toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "Request body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new AppError("bad_request", "Request body must be a JSON object");
  return value as Record<string, unknown>;
}

export const GET = apiRoute<P>("event:read", async ({ core, params }) => {
  const rows = await listProjectFeedback(core, params.org, params.project, FEEDBACK_LIMITS.pageSize);
  return Response.json(rows.map(serializeUserReport));
});

const withToken = apiRoute<P>("event:write", async ({ core, params, req }) =>
  Response.json(serializeUserReport(await submitUserFeedback(core.store, { ctx: core }, params.org, params.project, await body(req)))),
);

export async function POST(req: Request, context: { params: P }): Promise<Response> {
  const auth = req.headers.get("authorization")?.trim() ?? "";
  if (!/^dsn\s/i.test(auth)) return withToken(req, context);
  try {
    const saved = await submitUserFeedback(getServices().store, { dsn: auth.slice(4) }, context.params.org, context.params.project, await body(req));
    return Response.json(serializeUserReport(saved));
  } catch (err) {
    return toErrorResponse(err);
  }
}
