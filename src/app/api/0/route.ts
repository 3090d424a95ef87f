// GET /api/0/ – who the caller is (sentry-cli `info`); answers without credentials too.
import { authenticateToken } from "@/core/tokens";
import { getServices } from "@/runtime/services";
import { serializeUser } from "@/web/api/serializers";

export const dynamic = "force-dynamic";

export async function GET(req: Request): Promise<Response> {
  const { store } = getServices();
  const [scheme, token] = (req.headers.get("authorization") ?? "").trim().split(/\s+/, 2);
  const user = scheme?.toLowerCase() === "bearer" && token ? await authenticateToken(store, token) : null;
  return Response.json({
    version: "0",
    user: user ? serializeUser(user) : null,
    auth: user ? { scopes: ["org:read", "org:write", "project:read", "project:write", "project:releases", "team:read", "member:read", "event:read", "event:write"] } : null,
  });
}
