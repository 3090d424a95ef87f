import type { AuditEntry, AuditStore } from "../audit-ports";
import type { Ctx } from "./shared";

/** The actor filter lists the most recent actors only: an organization's trail names far fewer people than this. */
const AUDIT_ACTORS_LISTED = 500;

type Row = {
  id: number;
  organization_id: number | null;
  event: string;
  actor_user_id: string | null;
  actor_label: string;
  ip_address: string | null;
  target_object: string | null;
  target_user_id: string | null;
  note: string;
  data: string;
  created_at: string;
};

const toEntry = (r: Row): AuditEntry => ({
  id: r.id,
  organizationId: r.organization_id,
  event: r.event,
  actorUserId: r.actor_user_id,
  actorLabel: r.actor_label,
  ipAddress: r.ip_address,
  targetObject: r.target_object,
  targetUserId: r.target_user_id,
  note: r.note,
  data: r.data,
  createdAt: r.created_at,
});

export function auditStore({ db }: Ctx): AuditStore {
  return {
    async recordAudit(e) {
      await db
        .insertInto("audit_log")
        .values({
          organization_id: e.organizationId,
          event: e.event,
          actor_user_id: e.actorUserId,
          actor_label: e.actorLabel,
          ip_address: e.ipAddress,
          target_object: e.targetObject,
          target_user_id: e.targetUserId,
          note: e.note,
          data: e.data,
          created_at: e.createdAt,
        })
        .execute();
    },
    async listAudit({ organizationId, events, actorUserId, beforeId, limit }) {
      let q = db.selectFrom("audit_log").selectAll();
      q = organizationId === null ? q.where("organization_id", "is", null) : q.where("organization_id", "=", organizationId);
      if (events && events.length > 0) q = q.where("event", "in", [...events]);
      if (actorUserId !== undefined) q = q.where("actor_user_id", "=", actorUserId);
      if (beforeId !== undefined) q = q.where("id", "<", beforeId);
      return (await q.orderBy("id", "desc").limit(limit).execute()).map(toEntry);
    },
    async auditFacets(organizationId) {
      const base = () =>
        organizationId === null
          ? db.selectFrom("audit_log").where("organization_id", "is", null)
          : db.selectFrom("audit_log").where("organization_id", "=", organizationId);
      const events = (await base().select("event").distinct().orderBy("event").execute()).map((r) => r.event);
      const latest = await base()
        .select(["actor_user_id", db.fn.max("id").as("last_id")])
        .where("actor_user_id", "is not", null)
        .groupBy("actor_user_id")
        .orderBy("last_id", "desc")
        .limit(AUDIT_ACTORS_LISTED)
        .execute();
      const ids = latest.map((r) => Number(r.last_id));
      const labels = ids.length === 0 ? [] : await db.selectFrom("audit_log").select(["actor_user_id", "actor_label"]).where("id", "in", ids).execute();
      const actors = labels.map((r) => ({ userId: r.actor_user_id!, label: r.actor_label })).sort((a, b) => a.label.localeCompare(b.label));
      return { events, actors };
    },
  };
}
