// GET /api/internal/orgs/{org}/projects/{project}/logs/stream?after=…&query=…&level=…&trace=…: the logs page's live
// tail as server-sent events, for a signed-in member with event:read (checked by the core on every poll; others get
// 404). The stream ends at the first poll after its session is signed out, and at once when it is revoked (web/stream-session.ts).
import { getServices } from "@/runtime/services";
import { errorResponse, toErrorResponse } from "@/web/api/errors";
import { logTailResponse, tailRequest } from "@/web/log-tail-events";
import { streamOwner } from "@/web/stream-session";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: { org: string; project: string } }): Promise<Response> {
  try {
    const signedIn = await streamOwner(req);
    if (!signedIn) return errorResponse(401, "Sign in to follow the logs");
    return await logTailResponse(
      { store: getServices().store, actor: { user: signedIn.user } },
      params.org,
      params.project,
      tailRequest(new URL(req.url)),
      req.signal,
      signedIn.owner,
    );
  } catch (err) {
    return toErrorResponse(err);
  }
}
