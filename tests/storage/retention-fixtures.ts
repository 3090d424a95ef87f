// What the retention tests share (retention.test.ts, retention-job.test.ts): the dialects, each test's fresh store
// with one project, and the events, session aggregates and raw items they write.
import { randomBytes } from "node:crypto";
import { writeBatch } from "../../src/digest/commit";
import type { DigestedEvent } from "../../src/digest/items";
import type { SessionAggregate } from "../../src/digest/sessions";
import type { OpenDbOptions } from "../../src/storage/db";
import type { NewRawItem } from "../../src/storage/ports";
import { type TestCore, testCore } from "../helpers/core";
import { freshPgDatabase } from "../helpers/pg";

export const OLD = "2026-01-10T08:00:00.000Z";
export const NEW = "2026-11-23T10:15:00.000Z";
export const CUTOFF = "2026-06-01T00:00:00.000Z";
export const hex = (n: number) => n.toString(16).padStart(32, "0");

export const dialects: Record<string, () => Promise<{ options: OpenDbOptions; drop: () => Promise<void> }>> = {
  sqlite: async () => ({ options: { dialect: "sqlite", file: ":memory:" }, drop: async () => {} }),
  postgres: async () => {
    const db = await freshPgDatabase(`retention_${randomBytes(4).toString("hex")}`);
    return { options: { dialect: "postgres", url: db.url }, drop: db.drop };
  },
};

export function event(projectId: number, n: number, at: string, hash: string): DigestedEvent {
  return {
    projectId,
    eventId: hex(n),
    type: "error",
    receivedAt: at,
    timestamp: at,
    platform: "javascript",
    level: "error",
    title: `TypeError ${n}`,
    message: "",
    culprit: "",
    release: null,
    environment: null,
    size: 2,
    data: JSON.stringify({ n }),
    category: "error",
    grouping: { config: "c", hashes: [hash] },
    metadata: "{}",
    userKey: null,
    tags: [],
  };
}
export const aggregate = (projectId: number, at: string, environment: string, distinctId: string): SessionAggregate => ({
  kind: "aggregate",
  projectId,
  receivedAt: at,
  started: at,
  distinctId,
  release: "app@1",
  environment,
  exited: 1,
  errored: 0,
  abnormal: 0,
  crashed: 0,
});
export const rawItem = (projectId: number, at: string): NewRawItem => ({
  projectId,
  type: "session",
  eventId: null,
  receivedAt: at,
  headers: "{}",
  payload: Buffer.from("{}"),
  category: "session",
  quantity: 1,
});

/** A fresh store on the dialect with an owner, an organization and one project; dropped after `work`. */
export async function withStore(
  fresh: () => Promise<{ options: OpenDbOptions; drop: () => Promise<void> }>,
  work: (t: TestCore, projectId: number) => Promise<void>,
): Promise<void> {
  const f = await fresh();
  const t = await testCore(f.options);
  try {
    const owner = await t.accounts.createUser({ email: "owner@example.com", password: "password123", name: "Owner" });
    const org = await t.store.createOrganization({ slug: "org", name: "Org", ownerUserId: owner.id });
    const p = await t.store.createProject({ organizationId: org.id, teamId: null, slug: "web", name: "Web", platform: null });
    await work(t, p.id);
  } finally {
    await t.close();
    await f.drop();
  }
}

export const write = (t: TestCore, events: DigestedEvent[], rawItems: NewRawItem[] = []) =>
  writeBatch(t.store, { spoolId: "s", position: 1, events, rawItems, outcomes: [] });
export const eventIds = async (t: TestCore, projectId: number) =>
  (await t.store.listEvents(projectId, "errors", { limit: 100 })).items.map((e) => e.eventId).sort();
