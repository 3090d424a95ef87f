// PUT /api/0/organizations/{org}/monitors/{monitor_slug}/checkins/{checkin_id|latest}/ – finishes a check-in sent
// through the API (the legacy update: {"status": "ok" | "error", "duration"?}).
import { CLIENT_IP_HEADER } from "@/auth/create-auth";
import { sendApiCheckIn } from "@/core/monitor-checkins";
import { inProcessIntake } from "@/ingest/in-process";
import { apiRoute, readJson } from "@/web/api/handler";

export const dynamic = "force-dynamic";

export const PUT = apiRoute<{ org: string; monitor: string; checkin: string }>("project:write", async (ctx) => {
  const body = await readJson(ctx.req);
  const sent = await sendApiCheckIn(
    ctx.core,
    ctx.params.org,
    ctx.params.monitor,
    body,
    inProcessIntake(),
    ctx.req.headers.get(CLIENT_IP_HEADER) ?? "127.0.0.1",
    ctx.params.checkin,
  );
  return Response.json(sent);
});
