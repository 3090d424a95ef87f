// GET /api/internal/orgs/{org}/issues/stream: the dashboard's issue stream as server-sent events, for the signed-in
// member of the organization (the session cookie; non-members get 404). The stream ends at the first poll after its
// session is signed out or revoked.
import { getServices } from "@/runtime/services";
import { errorResponse, toErrorResponse } from "@/web/api/errors";
import { issueStreamResponse, streamRequest } from "@/web/issue-stream-events";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: { org: string } }): Promise<Response> {
  try {
    const { auth, store } = getServices();
    const opened = await auth.api.getSession({ headers: req.headers });
    const user = opened ? await store.getUserById(opened.user.id) : null;
    if (!opened || !user) return errorResponse(401, "Sign in to follow the issue stream");
    // Read from the database on every poll (no cookie cache), without pushing the session's expiry forward.
    const signedIn = async () =>
      (await auth.api.getSession({ headers: req.headers, query: { disableCookieCache: true, disableRefresh: true } }))?.session.id === opened.session.id;
    return await issueStreamResponse({ store, actor: { user } }, params.org, streamRequest(new URL(req.url)), req.signal, { userId: user.id, signedIn });
  } catch (err) {
    return toErrorResponse(err);
  }
}
