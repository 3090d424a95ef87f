// Sentry's audit log entry (OrganizationAuditLogsEndpoint's rows): id as a string, the actor and target user as users
// where they still have accounts (else the label the trail kept), the event name, the address, a note and the data.
import "server-only";
import type { AuditView } from "../../core/audit";
import type { User } from "../../storage/ports";
import { serializeUser } from "./serializers";

export function serializeAuditEntry(e: AuditView, users: Map<string, User>) {
  const actor = e.actorUserId ? users.get(e.actorUserId) : undefined;
  const target = e.targetUserId ? users.get(e.targetUserId) : undefined;
  return {
    id: String(e.id),
    actor: actor ? serializeUser(actor) : { id: e.actorUserId, name: e.actorLabel, username: e.actorLabel, email: e.actorUserId ? e.actorLabel : null },
    event: e.event,
    ipAddress: e.ipAddress,
    note: e.note,
    targetObject: e.targetObject === null ? null : /^\d+$/.test(e.targetObject) ? Number(e.targetObject) : e.targetObject,
    targetUser: target ? serializeUser(target) : null,
    data: e.data,
    dateCreated: e.createdAt,
  };
}
