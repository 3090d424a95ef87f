// Load for the cluster tests: a few senders posting error envelopes with fresh event ids, in turn to each origin, and
// the ids of those answered 200 (acknowledged: on a node's disk). Failed sends (a node just killed, nginx's 502) are
// not acknowledged and are not retried; the senders go on. And waitFor: a condition polled until a deadline.
import { type Cluster, errorEnvelope, sendEnvelope } from "../../bench/lib/cluster.mjs";

/** Polls `check` until it returns something other than null; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | null>, timeoutMs = 120_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > until) throw new Error(`waited ${timeoutMs / 1000} s for: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Loads not stopped yet: a test that fails midway leaves its load to stopLoads, or its senders keep the process alive. */
const running = new Set<Load>();

/** Stops every load still running (the suite's `after`). */
export async function stopLoads(): Promise<void> {
  await Promise.all([...running].map((l) => l.stop()));
}

export class Load {
  readonly acknowledged: string[] = [];
  readonly refused = new Map<number, number>();
  private running = true;
  private readonly senders: Promise<void>[];

  constructor(c: Cluster, origins: string[], senders = 4) {
    running.add(this);
    let turn = 0;
    this.senders = Array.from({ length: senders }, async () => {
      while (this.running) {
        const e = errorEnvelope(c.publicKey, { type: "LoadError", value: "under load", user: `user-${turn % 50}` });
        const status = await sendEnvelope(origins[turn++ % origins.length]!, c.projectId, e);
        if (status === 200) this.acknowledged.push(e.eventId);
        else {
          this.refused.set(status, (this.refused.get(status) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    running.delete(this);
    await Promise.all(this.senders);
  }
}
