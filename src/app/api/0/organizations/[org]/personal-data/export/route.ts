// GET /api/0/organizations/{org}/personal-data/export/?field=id|email|username|ip|any&value=…
// A person's events as one JSON file (issue 18): owners and superusers (core/personal-data.ts checks), streamed in
// slices of PERSONAL_DATA_LIMITS.exportSlice events, at most exportEvents. Faultline's own; Sentry has no such endpoint.
// A token needs event:admin: a person's events across every project are more than a read-only token's reading.
import { exportPersonData } from "@/core/personal-data";
import { apiRoute } from "@/web/api/handler";
import { iterableBody } from "@/web/iterable-body";

export const dynamic = "force-dynamic";
type P = { org: string };

export const GET = apiRoute<P>("event:admin", async ({ core, params, url }) => {
  const input: Record<string, string> = {};
  for (const key of ["field", "value"]) {
    const v = url.searchParams.get(key);
    if (v !== null) input[key] = v;
  }
  const { filename, chunks } = await exportPersonData(core, params.org, input);
  return new Response(iterableBody(chunks), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
});
