// GET /api/internal/orgs/{org}/issues/stream: the dashboard's issue stream as server-sent events, for the signed-in
// member of the organization (the session cookie; non-members get 404). The stream ends at the first poll after its
// session is signed out, and at once when it is revoked (web/stream-session.ts).
import { getServices } from "@/runtime/services";
import { errorResponse, toErrorResponse } from "@/web/api/errors";
import { issueStreamResponse, streamRequest } from "@/web/issue-stream-events";
import { streamOwner } from "@/web/stream-session";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: { org: string } }): Promise<Response> {
  try {
    const signedIn = await streamOwner(req);
    if (!signedIn) return errorResponse(401, "Sign in to follow the issue stream");
    return await issueStreamResponse(
      { store: getServices().store, actor: { user: signedIn.user } },
      params.org,
      streamRequest(new URL(req.url)),
      req.signal,
      signedIn.owner,
    );
  } catch (err) {
    return toErrorResponse(err);
  }
}
