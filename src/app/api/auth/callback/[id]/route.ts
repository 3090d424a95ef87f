// GET|POST /api/auth/callback/{provider}: where the OpenID Connect provider sends the browser back (single sign-on,
// auth/sso.ts). The only better-auth endpoint reachable over HTTP: everything else goes through web/auth-bridge.ts.
// Thin: the request goes to better-auth's handler, which checks the query (auth/sso-hooks.ts: a 400 for anything
// odd), the state, PKCE and the ID token, and answers with a redirect and the session cookie.
import { forwardToAuth } from "@/web/sso-callback";

export const dynamic = "force-dynamic";

export const GET = (request: Request, { params }: { params: { id: string } }) => forwardToAuth(request, params.id);
export const POST = (request: Request, { params }: { params: { id: string } }) => forwardToAuth(request, params.id);
