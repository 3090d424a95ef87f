// GET /api/0/ – who the caller is (sentry-cli `info`); answers without credentials too. An organization token has
// no user: it answers with its scopes only, as Sentry does. A personal token answers with its own scopes; one made
// before tokens had scopes has every scope a personal token can be given.
import { isAppError } from "@/core/errors";
import { authenticateBearer } from "@/core/org-tokens";
import { TOKEN_SCOPES } from "@/core/token-scopes";
import { getServices } from "@/runtime/services";
import { serializeUser } from "@/web/api/serializers";

export const dynamic = "force-dynamic";

async function caller(header: string | null) {
  const [scheme, token] = (header ?? "").trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== "bearer" || !token) return null;
  // An expired token is nobody here: this endpoint answers without credentials too.
  return authenticateBearer(getServices().store, token).catch((err: unknown) => {
    if (isAppError(err)) return null;
    throw err;
  });
}

export async function GET(req: Request): Promise<Response> {
  const actor = await caller(req.headers.get("authorization"));
  return Response.json({
    version: "0",
    user: actor && "user" in actor ? serializeUser(actor.user) : null,
    auth: actor ? { scopes: "orgToken" in actor ? actor.orgToken.scopes : (actor.token?.scopes ?? TOKEN_SCOPES) } : null,
  });
}
