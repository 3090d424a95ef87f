// Rows of the counters metric alerts read (events, issue users, session counts and users, spans), written straight
// into a real database at chosen times, so that each aggregate has a known answer.
import type { Db } from "../../src/storage/db";
import { dbBool } from "../../src/storage/kysely/shared";
import { oldIssue } from "./issue-row";

let n = 0;
const hex = (len: number) => (++n).toString(16).padStart(len, "0");

export async function addEvent(
  db: Db,
  projectId: number,
  receivedAt: string,
  over: { type?: string; level?: string; environment?: string | null; release?: string | null } = {},
): Promise<void> {
  await db.kysely
    .insertInto("events")
    .values({
      project_id: projectId,
      event_id: hex(32),
      type: over.type ?? "error",
      received_at: receivedAt,
      timestamp: receivedAt,
      platform: "javascript",
      level: over.level ?? "error",
      title: "Error: boom",
      message: "boom",
      culprit: "app.js",
      release: over.release ?? null,
      environment: over.environment ?? null,
      size: 2,
      data: Buffer.from("{}"),
      issue_id: null,
    })
    .execute();
}

export async function addIssueWithUsers(db: Db, projectId: number, users: { key: string; lastSeen: string }[]): Promise<number> {
  const now = new Date().toISOString();
  const { id } = await db.kysely
    .insertInto("issues")
    .values(oldIssue(projectId, now, { short_id: n++, title: "Error", platform: "javascript", times_seen: 1, assignee_team_id: null }))
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const u of users)
    await db.kysely.insertInto("issue_users").values({ issue_id: id, user_key: u.key, first_seen: u.lastSeen, last_seen: u.lastSeen }).execute();
  return id;
}

export async function addSessionHour(db: Db, projectId: number, hour: string, started: number, crashed: number, environment = "production"): Promise<void> {
  await db.kysely
    .insertInto("release_session_counts")
    .values({ project_id: projectId, release: "app@1.0.0", environment, hour, started, errored: crashed, crashed, abnormal: 0 })
    .execute();
}

export async function addSessionUser(db: Db, projectId: number, distinctId: string, lastSeen: string, crashed: boolean): Promise<void> {
  await db.kysely
    .insertInto("release_session_users")
    .values({
      project_id: projectId,
      release: "app@1.0.0",
      environment: "production",
      distinct_id: distinctId,
      crashed: dbBool(db.dialect, crashed),
      first_seen: lastSeen,
      last_seen: lastSeen,
    })
    .execute();
}

export async function addTransaction(
  db: Db,
  projectId: number,
  startTime: string,
  durationMs: number,
  status = "ok",
  transaction = "GET /items",
): Promise<void> {
  await db.kysely
    .insertInto("spans")
    .values({
      project_id: projectId,
      trace_id: hex(32),
      span_id: hex(16),
      parent_span_id: null,
      segment_id: null,
      is_segment: dbBool(db.dialect, true),
      transaction,
      op: "http.server",
      description: transaction,
      status,
      start_time: startTime,
      duration_ms: durationMs,
      environment: "production",
      release: null,
      event_id: null,
      received_at: startTime,
    })
    .execute();
}
