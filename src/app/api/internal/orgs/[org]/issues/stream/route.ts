// GET /api/internal/orgs/{org}/issues/stream: the dashboard's issue stream as server-sent events, for the signed-in
// member of the organization (the session cookie; non-members get 404).
import { getServices } from "@/runtime/services";
import { errorResponse, toErrorResponse } from "@/web/api/errors";
import { issueStreamResponse, streamRequest } from "@/web/issue-stream-events";
import { getCurrentUser } from "@/web/session";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: { org: string } }): Promise<Response> {
  try {
    const user = await getCurrentUser();
    if (!user) return errorResponse(401, "Sign in to follow the issue stream");
    return await issueStreamResponse({ store: getServices().store, actor: { user } }, params.org, streamRequest(new URL(req.url)), req.signal);
  } catch (err) {
    return toErrorResponse(err);
  }
}
