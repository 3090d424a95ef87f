// Who opens a live stream (the issue stream, the logs tail): the signed-in person and the session the stream belongs
// to. Each tick asks again whether that very session is still signed in (read from the database, no cookie cache,
// without pushing its expiry forward) and counts as the session being seen (throttled, core/sessions.ts); a revoked
// session's streams are also ended at once through web/live-streams.ts.
import "server-only";
import { noteSessionSeen } from "../core/sessions";
import { getServices } from "../runtime/services";
import type { User } from "../storage/ports";
import type { StreamOwner } from "./sse-stream";

export async function streamOwner(req: Request): Promise<{ user: User; owner: StreamOwner } | null> {
  const { auth, store } = getServices();
  const opened = await auth.api.getSession({ headers: req.headers });
  const user = opened ? await store.getUserById(opened.user.id) : null;
  if (!opened || !user) return null;
  const sessionId = opened.session.id;
  const seen = () => noteSessionSeen(store, sessionId).catch((err: unknown) => console.error("faultline: noting a session as seen failed", err));
  await seen();
  const signedIn = async () => {
    const now = await auth.api.getSession({ headers: req.headers, query: { disableCookieCache: true, disableRefresh: true } });
    if (now?.session.id !== sessionId) return false;
    await seen();
    return true;
  };
  return { user, owner: { userId: user.id, sessionId, signedIn } };
}
