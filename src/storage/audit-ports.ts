// The audit trail (issue 20, migration 0033): entries written by the core after each security-relevant change, read
// newest first per organization (or of the instance, organization null) with filters by event and actor.

export type AuditEntry = {
  id: number;
  /** Null: an entry of the instance (sign-in failures, lock-outs, personal tokens, password changes). */
  organizationId: number | null;
  event: string;
  actorUserId: string | null;
  actorLabel: string;
  ipAddress: string | null;
  targetObject: string | null;
  targetUserId: string | null;
  note: string;
  /** JSON object: what changed (`old` and `new` where a value was replaced) and the facts of the change. */
  data: string;
  createdAt: string;
};

export type AuditQuery = {
  organizationId: number | null;
  /** Only these events (none: every event). */
  events?: readonly string[];
  actorUserId?: string;
  /** Entries older than this id (the cursor of the next page). */
  beforeId?: number;
  limit: number;
};

export interface AuditStore {
  recordAudit(entry: Omit<AuditEntry, "id">): Promise<void>;
  listAudit(query: AuditQuery): Promise<AuditEntry[]>;
  /** The events and the actors (id and label, newest label) that occur in the trail, for the filters. */
  auditFacets(organizationId: number | null): Promise<{ events: string[]; actors: { userId: string; label: string }[] }>;
}
