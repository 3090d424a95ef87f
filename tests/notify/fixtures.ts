// What the delivery tests share: a migrated database (SQLite file or a fresh PostgreSQL database) with an
// organization, people, a team, a project and an issue; notifications written to the outbox as the digest writes
// them; and real HTTP receivers on loopback that record what arrives.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { type Db, openDb } from "../../src/storage/db";
import { notificationOutbox } from "../../src/storage/kysely/notification-outbox";
import { senderStore } from "../../src/storage/kysely/notifications";
import { migrateToLatest } from "../../src/storage/migrate";
import type { IssueNotificationPayload, NewNotification, NotificationAction, NotificationStore } from "../../src/storage/notification-ports";
import type { SenderStore } from "../../src/storage/notification-settings-ports";
import { freshPgDatabase } from "../helpers/pg";

export type TestDb = { db: Db; store: SenderStore; url: string; file: string; close: () => Promise<void> };

/** A migrated database: SQLite in a temporary file (other processes can open it), or a fresh PostgreSQL database. */
export async function testDb(dialect: "sqlite" | "postgres"): Promise<TestDb> {
  let db: Db;
  let url = "";
  let file = "";
  let cleanup: () => Promise<void>;
  if (dialect === "postgres") {
    const fresh = await freshPgDatabase(`notify_${randomBytes(5).toString("hex")}`);
    url = fresh.url;
    db = openDb({ dialect: "postgres", url });
    cleanup = fresh.drop;
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), "faultline-notify-"));
    file = path.join(dir, "faultline.sqlite3");
    db = openDb({ dialect: "sqlite", file });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  await migrateToLatest(db);
  // projects.webhook_secret comes with the alert rules' migration (0021); where it has not run, add it as it adds it.
  await sql`alter table projects add column webhook_secret text`.execute(db.kysely).catch(() => undefined);
  const store = senderStore({ db: db.kysely, dialect: db.dialect });
  return {
    db,
    store,
    url,
    file,
    close: async () => {
      await db.close();
      await cleanup();
    },
  };
}

export type Seeded = {
  orgId: number;
  otherOrgId: number;
  projectId: number;
  issueId: number;
  teamId: number;
  /** user ids: owner (not in the team), dev and ops (in the team), outsider (a member of another organization only) */
  users: { owner: string; dev: string; ops: string; outsider: string };
};

const now = () => new Date().toISOString();

async function user(db: Db, name: string): Promise<string> {
  const id = `${name}-${randomBytes(4).toString("hex")}`;
  await db.kysely
    .insertInto("users")
    .values({
      id,
      name,
      email: `${id}@example.test`,
      email_verified: db.dialect === "sqlite" ? 1 : true,
      image: null,
      created_at: now(),
      updated_at: now(),
      is_superuser: db.dialect === "sqlite" ? 0 : false,
    })
    .execute();
  return id;
}

async function member(db: Db, orgId: number, userId: string): Promise<number> {
  const r = await db.kysely
    .insertInto("members")
    .values({ organization_id: orgId, user_id: userId, role: "member", created_at: now() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

/** An organization with an owner, two team members and a project of that team with one issue; and a second organization. */
export async function seed(db: Db, secret: string | null = "s3cret-webhook-key"): Promise<Seeded> {
  const k = db.kysely;
  const slug = `org-${randomBytes(3).toString("hex")}`;
  const org = await k.insertInto("organizations").values({ slug, name: "Acme", created_at: now() }).returning("id").executeTakeFirstOrThrow();
  const other = await k
    .insertInto("organizations")
    .values({ slug: `${slug}-other`, name: "Other", created_at: now() })
    .returning("id")
    .executeTakeFirstOrThrow();
  const orgId = Number(org.id);
  const users = { owner: await user(db, "owner"), dev: await user(db, "dev"), ops: await user(db, "ops"), outsider: await user(db, "outsider") };
  await member(db, orgId, users.owner);
  const dev = await member(db, orgId, users.dev);
  const ops = await member(db, orgId, users.ops);
  await member(db, Number(other.id), users.outsider);
  const team = await k
    .insertInto("teams")
    .values({ organization_id: orgId, slug: "backend", name: "Backend", created_at: now() })
    .returning("id")
    .executeTakeFirstOrThrow();
  await k
    .insertInto("team_members")
    .values([
      { team_id: Number(team.id), member_id: dev },
      { team_id: Number(team.id), member_id: ops },
    ])
    .execute();
  const project = await k
    .insertInto("projects")
    .values({
      organization_id: orgId,
      team_id: Number(team.id),
      slug: "api",
      name: "API",
      platform: "node",
      created_at: now(),
      rate_limit_count: null,
      rate_limit_window: null,
      quotas: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await sql`update projects set webhook_secret = ${secret} where id = ${project.id}`.execute(k);
  const issue = await k
    .insertInto("issues")
    .values({
      project_id: Number(project.id),
      short_id: 1,
      type: "error",
      title: "TypeError: x is undefined",
      culprit: "app/handlers.js in handle",
      level: "error",
      platform: "node",
      metadata: "{}",
      status: "unresolved",
      substatus: "new",
      resolution: null,
      snooze: null,
      first_seen: now(),
      last_seen: now(),
      times_seen: 3,
      first_release: null,
      assignee_id: null,
      assignee_team_id: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { orgId, otherOrgId: Number(other.id), projectId: Number(project.id), issueId: Number(issue.id), teamId: Number(team.id), users };
}

export function issuePayload(s: Seeded, over: Partial<IssueNotificationPayload> = {}): IssueNotificationPayload {
  return {
    kind: "issue",
    trigger: "first_seen",
    ruleName: "Send a notification for new issues",
    organization: { id: s.orgId, slug: "acme", name: "Acme" },
    project: { id: s.projectId, slug: "api", name: "API", platform: "node" },
    issue: {
      id: s.issueId,
      shortId: "API-1",
      title: "TypeError: x is undefined",
      culprit: "app/handlers.js in handle",
      level: "error",
      status: "unresolved",
      firstSeen: "2026-03-02T10:00:00.000Z",
      lastSeen: "2026-03-02T10:00:05.000Z",
      count: 3,
      userCount: 2,
    },
    event: {
      eventId: "0123456789abcdef0123456789abcdef",
      message: "x is undefined",
      timestamp: "2026-03-02T10:00:05.000Z",
      environment: "production",
      release: "api@1.2.3",
      platform: "node",
      url: "https://shop.example.com/cart",
      tags: [
        ["level", "error"],
        ["logger", "node"],
        ["environment", "production"],
      ],
    },
    issueUrl: "https://faultline.example.com/en/organizations/acme/issues/1/",
    ...over,
  };
}

let keys = 0;

/** A notification as the digest decides one, due now. */
export function notification(s: Seeded, action: NotificationAction, over: Partial<NewNotification> = {}): NewNotification {
  return {
    organizationId: s.orgId,
    projectId: s.projectId,
    source: "issue_rule",
    ruleId: 7,
    issueId: s.issueId,
    action,
    payload: issuePayload(s),
    idempotencyKey: `rule:7:issue:${s.issueId}:event:${randomBytes(6).toString("hex")}:action:${keys++}`,
    createdAt: new Date().toISOString(),
    ...over,
  };
}

/** Writes notifications in a transaction of their own, as the digest's does. Returns their ids. */
export async function enqueue(db: Db, rows: NewNotification[]): Promise<number[]> {
  await db.kysely.transaction().execute((trx) => notificationOutbox(trx).enqueueNotifications(rows));
  const found = await db.kysely
    .selectFrom("notifications")
    .select(["id", "idempotency_key"])
    .where(
      "idempotency_key",
      "in",
      rows.map((r) => r.idempotencyKey),
    )
    .execute();
  const byKey = new Map(found.map((r) => [r.idempotency_key, Number(r.id)]));
  return rows.map((r) => byKey.get(r.idempotencyKey)!);
}

export type Receipt = { path: string; headers: http.IncomingHttpHeaders; body: Buffer; key: string };

/** How a receiver answers its n-th request (0-based): a status and body, or "hang" (never answers). */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | "hang";

export type Receiver = {
  url: (p?: string) => string;
  receipts: Receipt[];
  /** Resolves once `predicate` holds for the receipts so far (checked on each arrival). */
  until: (predicate: (r: Receipt[]) => boolean, what: string) => Promise<void>;
  close: () => Promise<void>;
};

/** A real HTTP receiver on 127.0.0.1:`port` (0: a port the system picks, named by `url`). */
export async function receiver(port: number, answer: (n: number, r: Receipt) => Answer = () => ({ status: 200, body: "ok" })): Promise<Receiver> {
  const receipts: Receipt[] = [];
  const waiters = new Set<() => void>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: Receipt = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks), key: String(req.headers["idempotency-key"] ?? "") };
      const a = answer(receipts.length, r);
      receipts.push(r);
      for (const w of waiters) w();
      if (a === "hang") return void hanging.add(res);
      res.writeHead(a.status, { "content-type": "text/plain", ...a.headers });
      res.end(a.body ?? "");
    });
  });
  // A port taken by another test fails here, saying so, rather than leaving the test waiting.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: (p = "/hook") => `http://127.0.0.1:${port}${p}`,
    receipts,
    until: (predicate, what) =>
      new Promise<void>((resolve, reject) => {
        // A guard against hanging for ever, not a timing assertion: the test fails saying what never arrived.
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the receiver on ${port} never saw ${what} (${receipts.length} requests)`));
        }, 30_000);
        const check = () => {
          if (!predicate(receipts)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Waits until the notification reaches a final state (sent or failed), checking after each pass of `step`. */
export async function settle(store: NotificationStore, id: number, step: () => Promise<unknown>): Promise<"sent" | "failed"> {
  for (let i = 0; i < 10_000; i++) {
    const n = await store.getNotification(id);
    if (n && n.status !== "pending") return n.status;
    await step();
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`notification ${id} never settled`);
}
