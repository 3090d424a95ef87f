// The monitors' scheduler (issue 19): every few seconds, each environment whose check-in deadline passed gets a
// missed check-in, and each in-progress check-in past its runtime becomes a timeout; either may open or continue the
// monitor's incident (core/monitor-state.ts). Several processes on one database may run it: a deadline is claimed by
// the conditional UPDATE that moves it (claimMissedDeadline), a timeout by the one that finishes the check-in while it
// is still in progress, each in the transaction that records the outcome, so each is handled once. The failure
// event is handed to the intake after the commit (submit), spool-first as any event, and keyed by its check-in:
// sent twice, it is stored once.
import { createHash } from "node:crypto";
import { MONITOR_LIMITS } from "../config/limits";
import { monitorFailureEvent } from "../core/monitor-failure";
import { afterMissed, applyFinishedStatus } from "../core/monitor-state";
import type { DueDeadline, DueTimeout, Monitor } from "../storage/monitor-ports";
import type { Store } from "../storage/ports";
import { pruneCheckIns } from "./retention";

export type FailureEvent = ReturnType<typeof monitorFailureEvent>;
/** Hands a failure event of the project to the intake. */
export type SubmitFailure = (projectId: number, failure: FailureEvent) => Promise<void>;
export type PassResult = { missed: number; timeouts: number; failures: number };

/** The missed check-in's id: the same for every process that sees the deadline, so it is stored once. */
export const missedGuid = (envId: number, expected: string) => createHash("sha256").update(`missed\0${envId}\0${expected}`).digest("hex").slice(0, 32);

async function markMissed(store: Store, { monitor, environment: env }: DueDeadline, now: number): Promise<FailureEvent | null | undefined> {
  const expected = env.nextCheckin ?? env.nextCheckinLatest!;
  return store.monitorTransaction(async (tx) => {
    if (!(await tx.claimMissedDeadline(env.id, env.nextCheckinLatest!, afterMissed(monitor, expected, now)))) return undefined;
    const fresh = await tx.monitorEnvironment(monitor.id, env.environment);
    const guid = missedGuid(env.id, expected);
    const stored = await tx.insertCheckIn({
      guid,
      monitorId: monitor.id,
      environmentId: env.id,
      projectId: monitor.projectId,
      status: "missed",
      durationMs: null,
      dateAdded: expected,
      dateUpdated: new Date(now).toISOString(),
      expectedTime: expected,
      timeoutAt: null,
    });
    if (!stored) return undefined;
    const change = applyFinishedStatus(monitor, fresh, "missed");
    await tx.updateMonitorEnvironment(env.id, change.patch);
    return change.failureEvent ? monitorFailureEvent(monitor, env.environment, { guid, status: "missed", dateAdded: expected, expectedTime: expected }) : null;
  });
}

async function markTimedOut(store: Store, { monitor, environment: env, checkIn }: DueTimeout, now: number): Promise<FailureEvent | null | undefined> {
  const at = new Date(now).toISOString();
  return store.monitorTransaction(async (tx) => {
    const durationMs = Math.min(Math.max(0, now - Date.parse(checkIn.dateAdded)), MONITOR_LIMITS.durationMaxMs);
    if (!(await tx.finishCheckIn(checkIn.id, { status: "timeout", durationMs, dateUpdated: at, timeoutAt: null }))) return undefined;
    const fresh = await tx.monitorEnvironment(monitor.id, env.environment);
    const change = applyFinishedStatus(monitor, fresh, "timeout");
    await tx.updateMonitorEnvironment(env.id, change.patch);
    return change.failureEvent
      ? monitorFailureEvent(monitor, env.environment, {
          guid: checkIn.guid,
          status: "timeout",
          dateAdded: checkIn.dateAdded,
          expectedTime: checkIn.expectedTime,
        })
      : null;
  });
}

/**
 * One pass at `now` (epoch ms): every deadline and runtime that has passed, each claimed. A monitor whose handling
 * fails does not stop the others': the pass goes on, then throws one error naming how many failed and the first reason.
 */
export async function runMonitorPass(store: Store, submit: SubmitFailure, now = Date.now()): Promise<PassResult> {
  const at = new Date(now).toISOString();
  const result: PassResult = { missed: 0, timeouts: 0, failures: 0 };
  const errors: unknown[] = [];
  const handle = async (monitor: Monitor, mark: () => Promise<FailureEvent | null | undefined>, kind: "missed" | "timeouts") => {
    try {
      const failure = await mark();
      if (failure === undefined) return;
      result[kind]++;
      if (failure) {
        result.failures++;
        await submit(monitor.projectId, failure);
      }
    } catch (err) {
      errors.push(err);
    }
  };
  for (const due of await store.dueDeadlines(at, MONITOR_LIMITS.scheduledPerPass)) await handle(due.monitor, () => markMissed(store, due, now), "missed");
  for (const due of await store.dueTimeouts(at, MONITOR_LIMITS.scheduledPerPass)) await handle(due.monitor, () => markTimedOut(store, due, now), "timeouts");
  if (errors.length > 0)
    throw new AggregateError(errors, `${errors.length} of the pass's monitors failed: ${String((errors[0] as Error)?.message ?? errors[0])}`);
  return result;
}

/**
 * Runs a pass every MONITOR_LIMITS.schedulerIntervalMs, one at a time, and once an hour prunes check-ins older than
 * `retentionDays` (monitors/retention.ts); a failing pass is logged and the next tries again.
 */
export function startMonitorScheduler(store: Store, submit: SubmitFailure, log: (line: string) => void, retentionDays: number): { stop: () => Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let prunedAt = 0;
  const pass = async () => {
    await runMonitorPass(store, submit);
    if (Date.now() - prunedAt >= MONITOR_LIMITS.pruneIntervalMs) {
      prunedAt = Date.now();
      await pruneCheckIns(store, retentionDays);
    }
  };
  const tick = () => {
    running = pass()
      .then(
        () => undefined,
        (err: unknown) => log(`faultline: monitors not checked this pass: ${String((err as Error)?.message ?? err).split("\n", 1)[0]}`),
      )
      .finally(() => {
        if (!stopped) {
          timer = setTimeout(tick, MONITOR_LIMITS.schedulerIntervalMs);
          timer.unref();
        }
      });
  };
  timer = setTimeout(tick, MONITOR_LIMITS.schedulerIntervalMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
