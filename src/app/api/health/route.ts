// GET /api/health (and /_health through a rewrite): 200 when the database answers, 503 otherwise.
import { sql } from "kysely";
import { getServices } from "@/runtime/services";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    await sql`select 1`.execute(getServices().db.kysely);
    return Response.json({ status: "ok" });
  } catch {
    return Response.json({ status: "unavailable", detail: "The database does not answer" }, { status: 503 });
  }
}
