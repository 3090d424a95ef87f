import type { Transaction } from "kysely";
import { hourOf } from "../../core/hours";
import type { DigestStore, OutcomeIncrement } from "../ports";
import type { Database } from "../schema";
import { type Ctx, nowIso } from "./shared";

/** Rows per INSERT: well under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. */
const ROWS_PER_STATEMENT = 100;

function chunks<T>(items: T[], size = ROWS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Sums increments with the same key, so one upsert statement never touches a row twice. */
function aggregate(increments: OutcomeIncrement[]): OutcomeIncrement[] {
  const byKey = new Map<string, OutcomeIncrement>();
  for (const o of increments) {
    if (o.quantity <= 0) continue;
    const key = `${o.projectId}\u0000${o.hour}\u0000${o.category}\u0000${o.outcome}\u0000${o.reason}`;
    const seen = byKey.get(key);
    if (seen) seen.quantity += o.quantity;
    else byKey.set(key, { ...o });
  }
  return [...byKey.values()];
}

async function addOutcomes(trx: Transaction<Database>, increments: OutcomeIncrement[]): Promise<void> {
  for (const part of chunks(aggregate(increments))) {
    await trx
      .insertInto("outcomes")
      .values(part.map((o) => ({ project_id: o.projectId, hour: o.hour, category: o.category, outcome: o.outcome, reason: o.reason, quantity: o.quantity })))
      .onConflict((oc) => oc.columns(["project_id", "hour", "category", "outcome", "reason"]).doUpdateSet((eb) => ({ quantity: eb("outcomes.quantity", "+", eb.ref("excluded.quantity")) })))
      .execute();
  }
}

export function digestStore({ db }: Ctx): DigestStore {
  return {
    async getSpoolPosition(spoolId) {
      const r = await db.selectFrom("spool_cursors").select("position").where("spool_id", "=", spoolId).executeTakeFirst();
      return r ? Number(r.position) : 0;
    },
    async commitDigest({ spoolId, position, events, rawItems, outcomes }) {
      return db.transaction().execute(async (trx) => {
        const counted: OutcomeIncrement[] = [...outcomes];
        let duplicates = 0;
        for (const part of chunks(events)) {
          const inserted = await trx
            .insertInto("events")
            .values(
              part.map((e) => ({
                project_id: e.projectId,
                event_id: e.eventId,
                type: e.type,
                received_at: e.receivedAt,
                timestamp: e.timestamp,
                platform: e.platform,
                level: e.level,
                title: e.title,
                message: e.message,
                culprit: e.culprit,
                release: e.release,
                environment: e.environment,
                size: e.size,
                data: e.data,
              })),
            )
            .onConflict((oc) => oc.columns(["project_id", "event_id"]).doNothing())
            .returning(["project_id", "event_id"])
            .execute();
          const fresh = new Set(inserted.map((r) => `${r.project_id}:${r.event_id}`));
          for (const e of part) {
            // The first of several copies in one batch is the one inserted; the others are duplicates.
            const isNew = fresh.delete(`${e.projectId}:${e.eventId}`);
            if (!isNew) duplicates++;
            counted.push({ projectId: e.projectId, hour: hourOf(e.receivedAt), category: e.category, outcome: isNew ? "accepted" : "invalid", reason: isNew ? "" : "duplicate", quantity: 1 });
          }
        }
        for (const part of chunks(rawItems)) {
          await trx
            .insertInto("raw_items")
            .values(part.map((i) => ({ project_id: i.projectId, type: i.type, event_id: i.eventId, received_at: i.receivedAt, headers: i.headers, payload: i.payload })))
            .execute();
          for (const i of part) counted.push({ projectId: i.projectId, hour: hourOf(i.receivedAt), category: i.category, outcome: "accepted", reason: "", quantity: i.quantity });
        }
        await addOutcomes(trx, counted);
        await trx
          .insertInto("spool_cursors")
          .values({ spool_id: spoolId, position, updated_at: nowIso() })
          .onConflict((oc) => oc.column("spool_id").doUpdateSet({ position, updated_at: nowIso() }))
          .execute();
        return { duplicates };
      });
    },
  };
}
