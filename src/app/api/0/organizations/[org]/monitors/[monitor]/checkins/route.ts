// GET /api/0/organizations/{org}/monitors/{monitor_slug}/checkins/ – the monitor's latest check-ins, newest first.
import { getMonitor } from "@/core/monitors";
import { apiRoute, paged } from "@/web/api/handler";
import { serializeCheckIn } from "@/web/api/monitor-serializers";

export const dynamic = "force-dynamic";

export const GET = apiRoute<{ org: string; monitor: string }>(async (ctx) => {
  const m = await getMonitor(ctx.core, ctx.params.org, ctx.params.monitor);
  return paged(m.checkIns.map((c) => serializeCheckIn(c, m.environments)), null, ctx);
});
