// Release health counting (Relay's extract_session_metrics, Sentry's release health): per release, environment and
// the hour a session started, how many sessions started, had errors, crashed or ended abnormally, and which users
// (did) took part and whether any of their sessions crashed.
//
// Individual sessions are sent again on each change (`init` first, then errors, then an end status). Their state is
// kept per session id, so each is counted as started once (on its first update, whether or not it says `init`), as
// errored once, and by its first end status only: an end state is never updated (an errored session that later
// crashes counts as errored and crashed; crashed sessions are a subset of errored ones, as in Relay).
//
// Replays: the digest writes a batch, these counts included, in the same transaction as its spool position
// (commit.ts, loop.ts), so a batch is either counted with its position or not at all, and only a batch whose
// transaction did not commit is read again. The session states make even a resent update count nothing twice.
import { RELEASE_LIMITS } from "../config/limits";
import { hourOf } from "../core/hours";
import type { DigestTx } from "../storage/digest-ports";
import type { SessionCountIncrement, SessionState, SessionUserSighting } from "../storage/session-ports";
import type { SessionAggregate, SessionItem, SessionUpdate } from "./sessions";

const ENDED = new Set(["exited", "crashed", "abnormal"]);

const increment = (projectId: number, at: { release: string; environment: string; hour: string }): SessionCountIncrement => ({
  projectId,
  release: at.release,
  environment: at.environment,
  hour: at.hour,
  started: 0,
  errored: 0,
  crashed: 0,
  abnormal: 0,
});

function countAggregate(a: SessionAggregate, counts: SessionCountIncrement[], users: SessionUserSighting[]): void {
  const c = increment(a.projectId, { ...a, hour: hourOf(a.started) });
  c.started = a.exited + a.errored + a.abnormal + a.crashed;
  c.errored = a.errored + a.abnormal + a.crashed;
  c.crashed = a.crashed;
  c.abnormal = a.abnormal;
  counts.push(c);
  if (a.distinctId)
    users.push({ projectId: a.projectId, release: a.release, environment: a.environment, distinctId: a.distinctId, crashed: a.crashed > 0, seen: a.started });
}

/** Applies one project's updates, in arrival order, to the sessions' states; returns the states that changed. */
async function countUpdates(
  tx: DigestTx,
  projectId: number,
  updates: SessionUpdate[],
  counts: SessionCountIncrement[],
  users: SessionUserSighting[],
): Promise<SessionState[]> {
  const states = await tx.sessionStates(
    projectId,
    updates.map((u) => u.sessionId),
  );
  const changed = new Map<string, SessionState>();
  for (const u of updates) {
    let s = states.get(u.sessionId);
    const c = s ? increment(projectId, s) : increment(projectId, { ...u, hour: hourOf(u.started) });
    if (!s) {
      s = { sessionId: u.sessionId, release: u.release, environment: u.environment, hour: c.hour, distinctId: u.distinctId, errored: false, status: "ok" };
      states.set(u.sessionId, s);
      c.started = 1;
    }
    if (ENDED.has(s.status)) continue;
    s.distinctId ??= u.distinctId;
    if (!s.errored && (u.errors > 0 || u.status === "errored" || u.status === "crashed" || u.status === "abnormal")) {
      s.errored = true;
      c.errored = 1;
    }
    if (u.status === "crashed") c.crashed = 1;
    if (u.status === "abnormal") c.abnormal = 1;
    if (ENDED.has(u.status)) s.status = u.status as SessionState["status"];
    changed.set(s.sessionId, s);
    counts.push(c);
    if (s.distinctId)
      users.push({ projectId, release: s.release, environment: s.environment, distinctId: s.distinctId, crashed: u.status === "crashed", seen: u.started });
  }
  return [...changed.values()];
}

export async function writeSessions(tx: DigestTx, items: SessionItem[]): Promise<void> {
  if (items.length === 0) return;
  const counts: SessionCountIncrement[] = [];
  const users: SessionUserSighting[] = [];
  const updatesByProject = new Map<number, SessionUpdate[]>();
  for (const item of items) {
    if (item.kind === "aggregate") countAggregate(item, counts, users);
    else {
      const list = updatesByProject.get(item.projectId);
      if (list) list.push(item);
      else updatesByProject.set(item.projectId, [item]);
    }
  }
  // Another digest (PostgreSQL, several processes) may be counting updates of the same sessions: it waits, or we do.
  await tx.lockSessionStates([...updatesByProject.keys()]);
  for (const [projectId, updates] of updatesByProject) await tx.saveSessionStates(projectId, await countUpdates(tx, projectId, updates, counts, users));
  await tx.countSessions(counts.filter((c) => c.started + c.errored + c.crashed + c.abnormal > 0));
  await tx.sightSessionUsers(users);
  await tx.ensureReleases(items.map((i) => ({ projectId: i.projectId, version: i.release })));
  // Sessions started longer before their arrival are refused (sessions.ts), so their states can go; the extra hour
  // covers the hour's rounding. The clock is the batch's earliest arrival, not the time of writing: a batch read again
  // prunes the same, and no state the batch itself still needs goes.
  const earliest = items.reduce((min, i) => (i.receivedAt < min ? i.receivedAt : min), items[0]!.receivedAt);
  await tx.pruneSessionStates(hourOf(Date.parse(earliest) - RELEASE_LIMITS.sessionMaxAgeDays * 86_400_000 - 3_600_000));
}
