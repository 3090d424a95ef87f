// GET /api/health (and /_health through a rewrite): 200 when the database answers, 503 otherwise. A full disk is still
// a 200 (reads go on, so a load balancer keeps the node), but `storage` says it: "ok", or "full" with since when and
// what failed (storage/storage-full.ts, from the writes this process met; nothing is written to find out).
import { sql } from "kysely";
import { getServices } from "@/runtime/services";
import { storageHealth } from "@/storage/storage-full";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  try {
    await sql`select 1`.execute(getServices().db.kysely);
    return Response.json({ status: "ok", ...storageHealth() });
  } catch {
    return Response.json({ status: "unavailable", detail: "The database does not answer", ...storageHealth() }, { status: 503 });
  }
}
