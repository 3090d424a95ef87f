// GET /api/0/ – who the caller is (sentry-cli `info`); answers without credentials too. An organization token has
// no user: it answers with its scopes only, as Sentry does.
import { authenticateBearer } from "@/core/org-tokens";
import { getServices } from "@/runtime/services";
import { serializeUser } from "@/web/api/serializers";

export const dynamic = "force-dynamic";

const USER_SCOPES = ["org:read", "org:write", "project:read", "project:write", "project:releases", "team:read", "member:read", "event:read", "event:write"];

export async function GET(req: Request): Promise<Response> {
  const { store } = getServices();
  const [scheme, token] = (req.headers.get("authorization") ?? "").trim().split(/\s+/, 2);
  const actor = scheme?.toLowerCase() === "bearer" && token ? await authenticateBearer(store, token) : null;
  return Response.json({
    version: "0",
    user: actor && "user" in actor ? serializeUser(actor.user) : null,
    auth: actor ? { scopes: "orgToken" in actor ? actor.orgToken.scopes : USER_SCOPES } : null,
  });
}
