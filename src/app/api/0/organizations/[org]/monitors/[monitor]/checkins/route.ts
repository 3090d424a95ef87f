// GET|POST /api/0/organizations/{org}/monitors/{monitor_slug}/checkins/ – the monitor's latest check-ins, newest
// first; POST sends one (the legacy API check-in: {"status": "in_progress" | "ok" | "error", "duration"?, "environment"?}).
import { CLIENT_IP_HEADER } from "@/auth/create-auth";
import { sendApiCheckIn } from "@/core/monitor-checkins";
import { getMonitor } from "@/core/monitors";
import { inProcessIntake } from "@/ingest/in-process";
import { apiRoute, paged, readJson } from "@/web/api/handler";
import { serializeCheckIn } from "@/web/api/monitor-serializers";

export const dynamic = "force-dynamic";

type Params = { org: string; monitor: string };

export const GET = apiRoute<Params>(["project:read", "org:read"], async (ctx) => {
  const m = await getMonitor(ctx.core, ctx.params.org, ctx.params.monitor);
  return paged(
    m.checkIns.map((c) => serializeCheckIn(c, m.environments)),
    null,
    ctx,
  );
});

export const POST = apiRoute<Params>("project:write", async (ctx) => {
  const body = await readJson(ctx.req);
  const sent = await sendApiCheckIn(
    ctx.core,
    ctx.params.org,
    ctx.params.monitor,
    body,
    inProcessIntake(),
    ctx.req.headers.get(CLIENT_IP_HEADER) ?? "127.0.0.1",
  );
  return Response.json(sent, { status: 201 });
});
