// Writes one digested batch in one transaction (storage/digest-ports.ts): each new event joins the issue that owns
// any of its grouping hashes, or a new issue, and its other hashes are pointed at that issue (Sentry's
// `_save_aggregate`); then the issues' counters, users and tag values, the releases and environments events name,
// the outcome counts, and the spool position. A batch written again after a crash changes nothing twice: stored
// events are skipped before anything is counted.
import { linkBase } from "../core/links";
import { hourOf } from "../core/hours";
import type { DigestTx, IssueState, IssueUpdate, NewActivity, NewGroupedEvent } from "../storage/digest-ports";
import type { DigestStore, NewRawItem, OutcomeIncrement } from "../storage/ports";
import type { DigestedEvent } from "./items";
import { type AlertLinks, evaluateAlerts } from "./alerts";
import { applyLifecycle, type LifecycleResult } from "./lifecycle";
import { writeSessions } from "./session-counts";
import type { SessionItem } from "./sessions";
import { type FailedRecord, writeSetAside } from "./set-aside";
import { writeSpans } from "./spans-commit";
import { writeEventUsers } from "./event-users";
import { writeRegressionNotices } from "./workflow-notices";
import type { ExpandedSpans } from "./spans";
import type { CheckInItem } from "./check-ins";
import { applyCheckIns } from "./check-ins-commit";
import type { NewFeedback } from "../storage/feedback-ports";
import { writeFeedback } from "./feedback";
import { evaluateFeedbackAlerts } from "./feedback-alerts";
import type { NewLog } from "../storage/log-ports";
import type { NewAttachment } from "../storage/attachment-ports";

/** `failed`: records whose processing failed twice, set aside in the same transaction (set-aside.ts). */
/** attachments: rows whose blobs are written already (digest/attachments.ts writePendingBlobs). */
export type DigestBatch = {
  spoolId: string;
  position: number;
  events: DigestedEvent[];
  rawItems: NewRawItem[];
  outcomes: OutcomeIncrement[];
  sessions?: SessionItem[];
  spans?: ExpandedSpans;
  failed?: FailedRecord[];
  checkIns?: CheckInItem[];
  feedback?: NewFeedback[];
  attachments?: NewAttachment[];
  logs?: NewLog[];
};
/** notifications: outbox rows the batch's alert rules newly enqueued (the sender wakes up on them). */
export type BatchResult = { duplicates: number; newIssues: number; notifications: number };
/** links: where notifications link to (FAULTLINE_URL and base path from the environment unless given). */
export type BatchOptions = { links?: AlertLinks };

let defaultLinks: AlertLinks | undefined;

/** Issues the lifecycle brought back: regressions with the event that made them, and ignored issues that came back. */
function lifecycleChanges(lifecycle: LifecycleResult): { regressed: Map<number, string>; reappeared: Set<number> } {
  const regressed = new Map<number, string>();
  const reappeared = new Set<number>();
  for (const a of lifecycle.activity) {
    if (a.type === "set_regression") regressed.set(a.issueId, String((JSON.parse(a.data) as { event_id?: unknown }).event_id ?? ""));
    else if (a.type === "set_unresolved" || a.type === "set_escalating") reappeared.add(a.issueId);
  }
  return { regressed, reappeared };
}

function byProject<T extends { projectId: number }>(items: T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const item of items) {
    const list = out.get(item.projectId);
    if (list) list.push(item);
    else out.set(item.projectId, [item]);
  }
  return out;
}

const outcome = (e: DigestedEvent, kind: "accepted" | "invalid", reason = ""): OutcomeIncrement => ({
  projectId: e.projectId,
  hour: hourOf(e.receivedAt),
  category: e.category,
  outcome: kind,
  reason,
  quantity: 1,
});

/** Events not stored yet, first copy only; the others are counted as duplicates. */
async function freshEvents(tx: DigestTx, events: DigestedEvent[], counted: OutcomeIncrement[]): Promise<DigestedEvent[]> {
  const fresh: DigestedEvent[] = [];
  // Projects in id order: on PostgreSQL each project's event ids are locked in turn, in one order for every batch.
  for (const [projectId, list] of [...byProject(events)].sort(([a], [b]) => a - b)) {
    const seen = await tx.existingEventIds(projectId, list);
    for (const e of list) {
      if (seen.has(e.eventId)) counted.push(outcome(e, "invalid", "duplicate"));
      else {
        seen.add(e.eventId);
        fresh.push(e);
      }
    }
  }
  return fresh;
}

type Assignment = {
  issueOf: Map<DigestedEvent, number>;
  created: Set<number>;
  updates: Map<number, IssueUpdate>;
  /** Existing issues as they were when the batch began. */
  states: Map<number, IssueState>;
};

/**
 * The issues each project's hashes lead to. Hashes no issue owns yet are locked (DigestTx.lockHashes) and read again:
 * another node's digest may have created their issue meanwhile, and from here on none can until this batch commits.
 */
async function knownIssues(tx: DigestTx, grouped: Map<number, DigestedEvent[]>): Promise<Map<number, Map<string, IssueState>>> {
  const knownOf = new Map<number, Map<string, IssueState>>();
  const unknown: { projectId: number; hash: string }[] = [];
  for (const [projectId, list] of grouped) {
    const hashes: string[] = [];
    for (const e of list) hashes.push(...e.grouping!.hashes);
    const known = await tx.issuesByHash(projectId, hashes);
    knownOf.set(projectId, known);
    for (const hash of new Set(hashes)) if (!known.has(hash)) unknown.push({ projectId, hash });
  }
  if (unknown.length === 0) return knownOf;
  await tx.lockHashes(unknown);
  for (const [projectId, known] of knownOf) {
    const missing = unknown.filter((u) => u.projectId === projectId).map((u) => u.hash);
    if (missing.length === 0) continue;
    for (const [hash, issue] of await tx.issuesByHash(projectId, missing)) known.set(hash, issue);
  }
  return knownOf;
}

// The batch's loops use these module-level functions, or none: a callback made per batch is compiled again after each
// full collection (storage/kysely/batch-rows.ts sumBy says why).
const isGrouped = (e: DigestedEvent) => (e.grouping?.hashes.length ?? 0) > 0;
const byProjectId = ([a]: [number, unknown], [b]: [number, unknown]) => a - b;
function firstKnown(known: Map<string, IssueState>, hashes: string[]): IssueState | undefined {
  for (const h of hashes) {
    const issue = known.get(h);
    if (issue !== undefined) return issue;
  }
  return undefined;
}

/** Finds or creates each grouped event's issue, in batch order, so that later events join issues earlier ones made. */
async function assignIssues(tx: DigestTx, events: DigestedEvent[]): Promise<Assignment> {
  const issueOf = new Map<DigestedEvent, number>();
  const created = new Set<number>();
  const updates = new Map<number, IssueUpdate>();
  const states = new Map<number, IssueState>();
  // Projects in id order: issue creation takes each project's row lock (its short-id counter) in one order.
  const grouped = new Map([...byProject(events.filter(isGrouped))].sort(byProjectId));
  const knownOf = await knownIssues(tx, grouped);
  for (const [projectId, list] of grouped) {
    const known = knownOf.get(projectId)!;
    for (const e of list) {
      const { hashes, config } = e.grouping!;
      let issue = firstKnown(known, hashes);
      if (issue && !created.has(issue.id)) states.set(issue.id, issue);
      if (!issue) {
        issue = await tx.createIssue({
          projectId,
          type: e.type,
          title: e.title,
          culprit: e.culprit,
          level: e.level,
          platform: e.platform,
          metadata: e.metadata,
          firstSeen: e.timestamp,
          firstRelease: e.release,
        });
        created.add(issue.id);
      }
      const unowned: string[] = [];
      for (const h of hashes) if (!known.has(h)) unowned.push(h);
      if (unowned.length > 0) {
        await tx.addHashes(projectId, issue.id, unowned, config);
        for (const h of unowned) known.set(h, issue);
      }
      issueOf.set(e, issue.id);
      const update = updates.get(issue.id) ?? { id: issue.id, newEvents: 0, lastSeen: issue.lastSeen };
      update.newEvents += 1;
      // The newest event describes the issue (Sentry updates a group's data from its events); a late one does not.
      if (e.timestamp >= update.lastSeen)
        Object.assign(update, { lastSeen: e.timestamp, title: e.title, culprit: e.culprit, level: e.level, metadata: e.metadata });
      updates.set(issue.id, update);
    }
  }
  return { issueOf, created, updates, states };
}

/**
 * The existing issues as they stand now that this batch's updates hold their rows: another node may have regressed,
 * resolved or counted them since the batch read them. times_seen without this batch's own events, as first read.
 */
async function refreshStates(tx: DigestTx, a: Assignment): Promise<void> {
  if (a.states.size === 0) return;
  for (const [id, now] of await tx.issueStates([...a.states.keys()]))
    a.states.set(id, { ...now, timesSeen: now.timesSeen - (a.updates.get(id)?.newEvents ?? 0) });
}

/** Counters, users, tag values, releases and environments of the stored events. */
async function sight(tx: DigestTx, stored: DigestedEvent[], a: Assignment): Promise<void> {
  const counts = [];
  const users = [];
  const tags = [];
  const releases = [];
  const environments = [];
  const releaseCreditedIssues = new Set<number>();
  for (const e of stored) {
    const issueId = a.issueOf.get(e);
    if (issueId !== undefined) {
      counts.push({ issueId, hour: hourOf(e.timestamp), count: 1 });
      if (e.userKey) users.push({ issueId, userKey: e.userKey, seen: e.timestamp });
      for (const [key, value] of e.tags) tags.push({ issueId, key, value, count: 1, firstSeen: e.timestamp, lastSeen: e.timestamp });
    }
    if (e.release) {
      // An issue is new in the release of the event that created it.
      const isNewIssue = issueId !== undefined && a.created.has(issueId) && !releaseCreditedIssues.has(issueId);
      if (isNewIssue) releaseCreditedIssues.add(issueId);
      releases.push({ projectId: e.projectId, version: e.release, firstEvent: e.timestamp, lastEvent: e.timestamp, newIssues: isNewIssue ? 1 : 0 });
    }
    if (e.environment) environments.push({ projectId: e.projectId, name: e.environment });
  }
  await tx.countIssueEvents(counts);
  await tx.sightUsers(users);
  await tx.sightTags(tags);
  await tx.sightReleases(releases);
  await tx.sightEnvironments(environments);
}

export async function writeBatch(store: DigestStore, batch: DigestBatch, options: BatchOptions = {}): Promise<BatchResult> {
  const links = options.links ?? (defaultLinks ??= { base: linkBase() });
  return store.digestTransaction(async (tx) => {
    // Check-ins first: the failures they make are events of this batch (digest/check-ins-commit.ts).
    const monitors = await applyCheckIns(tx, batch.checkIns ?? []);
    const counted: OutcomeIncrement[] = [...batch.outcomes, ...monitors.outcomes];
    const fresh = await freshEvents(tx, [...batch.events, ...monitors.events], counted);
    const assignment = await assignIssues(tx, fresh);
    const rows: NewGroupedEvent[] = [];
    for (const e of fresh) rows.push({ ...e, issueId: assignment.issueOf.get(e) ?? null });
    const storedKeys = await tx.insertEvents(rows);
    const stored: DigestedEvent[] = [];
    for (const e of fresh) {
      const isStored = storedKeys.has(`${e.projectId}:${e.eventId}`);
      if (isStored) stored.push(e);
      counted.push(isStored ? outcome(e, "accepted") : outcome(e, "invalid", "duplicate"));
    }
    await tx.updateIssues([...assignment.updates.values()]);
    await refreshStates(tx, assignment);
    const now = new Date().toISOString();
    const firstSeen: NewActivity[] = [...assignment.created].map((issueId) => ({ issueId, type: "first_seen", userId: null, data: "{}", createdAt: now }));
    await tx.addActivity(firstSeen);
    await sight(tx, stored, assignment);
    await writeEventUsers(tx, stored, assignment.issueOf, storedKeys);
    const feedback = await writeFeedback(tx, stored, assignment.issueOf, batch.feedback ?? []);
    // User reports are counted as accepted as they were when kept as raw items (category user_report_v2).
    for (const f of batch.feedback ?? [])
      counted.push({ projectId: f.projectId, hour: hourOf(f.receivedAt), category: "user_report_v2", outcome: "accepted", reason: "", quantity: 1 });
    const eventsOf = new Map<number, DigestedEvent[]>();
    for (const e of stored) {
      const id = assignment.issueOf.get(e);
      if (id === undefined || !assignment.states.has(id)) continue;
      const events = eventsOf.get(id);
      if (events) events.push(e);
      else eventsOf.set(id, [e]);
    }
    const lifecycle = await applyLifecycle(tx, assignment.states, eventsOf, new Date());
    await tx.updateIssues(lifecycle.updates);
    await tx.addActivity(lifecycle.activity);
    await writeRegressionNotices(tx, lifecycle.activity, eventsOf);
    // After the issues' counters and states are written: rules read them as they stand at the end of the batch.
    const notifications = await evaluateAlerts(
      store,
      tx,
      { stored, issueOf: assignment.issueOf, created: assignment.created, ...lifecycleChanges(lifecycle), now: new Date() },
      links,
    );
    // Each new feedback is a new issue of category feedback to the rules (digest/feedback-alerts.ts).
    const feedbackNotifications = await evaluateFeedbackAlerts(store, tx, feedback, new Date(), links);
    await writeSessions(tx, batch.sessions ?? []);
    // Sessions name environments too: the environment filter offers those a release's health was counted in.
    await tx.sightEnvironments((batch.sessions ?? []).filter((s) => s.environment !== "").map((s) => ({ projectId: s.projectId, name: s.environment })));
    await writeSpans(tx, stored, storedKeys, batch.spans);
    await tx.insertRawItems(batch.rawItems);
    // Attachments count in bytes, as Sentry counts them.
    await tx.insertAttachments(batch.attachments ?? []);
    for (const a of batch.attachments ?? [])
      counted.push({ projectId: a.projectId, hour: hourOf(a.receivedAt), category: "attachment", outcome: "accepted", reason: "", quantity: a.size });
    // Structured logs, counted as read (digest/logs.ts).
    await tx.insertLogs(batch.logs ?? []);
    for (const i of batch.rawItems)
      counted.push({ projectId: i.projectId, hour: hourOf(i.receivedAt), category: i.category, outcome: "accepted", reason: "", quantity: i.quantity });
    await tx.addOutcomes(counted);
    await writeSetAside(tx, batch.spoolId, batch.failed ?? []);
    await tx.setSpoolPosition(batch.spoolId, batch.position);
    return {
      duplicates: batch.events.length + monitors.events.length - stored.length,
      newIssues: assignment.created.size,
      notifications: notifications + feedbackNotifications,
    };
  });
}
