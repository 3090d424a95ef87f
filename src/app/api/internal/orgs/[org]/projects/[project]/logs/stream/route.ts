// GET /api/internal/orgs/{org}/projects/{project}/logs/stream?after=…&query=…&level=…&trace=…: the logs page's live
// tail as server-sent events, for a signed-in member with event:read (checked by the core on every poll; others get
// 404). The stream ends at the first poll after its session is signed out or revoked.
import { getServices } from "@/runtime/services";
import { errorResponse, toErrorResponse } from "@/web/api/errors";
import { logTailResponse, tailRequest } from "@/web/log-tail-events";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: { org: string; project: string } }): Promise<Response> {
  try {
    const { auth, store } = getServices();
    const opened = await auth.api.getSession({ headers: req.headers });
    const user = opened ? await store.getUserById(opened.user.id) : null;
    if (!opened || !user) return errorResponse(401, "Sign in to follow the logs");
    const signedIn = async () =>
      (await auth.api.getSession({ headers: req.headers, query: { disableCookieCache: true, disableRefresh: true } }))?.session.id === opened.session.id;
    return await logTailResponse({ store, actor: { user } }, params.org, params.project, tailRequest(new URL(req.url)), req.signal, {
      userId: user.id,
      signedIn,
    });
  } catch (err) {
    return toErrorResponse(err);
  }
}
