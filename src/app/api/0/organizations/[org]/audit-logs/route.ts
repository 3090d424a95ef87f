// GET /api/0/organizations/{org}/audit-logs/ – the organization's audit trail, newest first, in Sentry's shape:
// {"rows": [...], "options": [event names]}, filtered by ?event= and ?actor= (a user id), paged by the Link cursor.
// Owners and admins (org:audit); a token needs org:write, as Sentry's endpoint.
import { listAuditLog } from "@/core/audit";
import { serializeAuditEntry } from "@/web/api/audit-serializers";
import { apiRoute, linkHeader } from "@/web/api/handler";
import type { User } from "@/storage/ports";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string }>("org:write", async (ctx) => {
  const q = ctx.url.searchParams;
  const page = await listAuditLog(ctx.core, ctx.params.org, {
    event: q.get("event") ?? undefined,
    actor: q.get("actor") ?? undefined,
    cursor: q.get("cursor") ?? undefined,
  });
  const users = new Map<string, User>();
  for (const id of new Set(page.entries.flatMap((e) => [e.actorUserId, e.targetUserId]).filter((x): x is string => x !== null))) {
    const u = await ctx.core.store.getUserById(id);
    if (u) users.set(id, u);
  }
  return Response.json(
    { rows: page.entries.map((e) => serializeAuditEntry(e, users)), options: page.events },
    { headers: { Link: linkHeader(ctx.url, page.nextCursor, ctx.publicUrl, ctx.basePath) } },
  );
});
