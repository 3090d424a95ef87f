// Triage in Sentry's API shapes: tags with their top values (sentry `TagKeySerializer`, `TagValueSerializer`), an
// issue's assignee (`ActorSerializer`: {type, id, name, email}) and activity entries, comments among them
// (`ActivitySerializer`: {id, user, type, data, dateCreated}).
import type { IssueActivityEntry, IssueTagSummary } from "../../storage/issue-ports";
import type { Team, User } from "../../storage/ports";
import type { IssueTagValue } from "../../storage/triage-ports";

/** Sentry's TAG_LABELS; other keys are title-cased with spaces for underscores. */
const TAG_LABELS: Record<string, string> = {
  exc_type: "Exception Type",
  user: "User",
  release: "Release",
  dist: "Distribution",
  os: "OS",
  url: "URL",
  server_name: "Server",
};

export const tagLabel = (key: string) => (Object.hasOwn(TAG_LABELS, key) ? TAG_LABELS[key]! : key.replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase()));

export const serializeTagValue = (key: string, v: IssueTagValue) => ({
  key,
  name: v.value,
  value: v.value,
  count: v.count,
  lastSeen: v.lastSeen,
  firstSeen: v.firstSeen,
});

export const serializeTag = (t: IssueTagSummary) => ({
  key: t.key,
  name: tagLabel(t.key),
  totalValues: t.totalValues,
  uniqueValues: t.uniqueValues,
  topValues: t.topValues.map((v) => serializeTagValue(t.key, v)),
});

export type Assignee = { type: "user"; id: string; name: string; email: string } | { type: "team"; id: string; name: string };

export const userAssignee = (u: User): Assignee => ({ type: "user", id: u.id, name: u.name || u.email, email: u.email });
export const teamAssignee = (t: Team): Assignee => ({ type: "team", id: String(t.id), name: t.slug });

/** The user as activity lists them (a subset of Sentry's UserSerializer); null for the system (first seen, regressions). */
export const serializeActivityUser = (u: User | null | undefined) => (u ? { id: u.id, name: u.name || u.email, username: u.email, email: u.email } : null);

export const serializeActivity = (a: IssueActivityEntry, users: Map<string, User>) => ({
  id: String(a.id),
  type: a.type,
  data: a.data,
  user: serializeActivityUser(a.userId ? users.get(a.userId) : null),
  dateCreated: a.createdAt,
});
