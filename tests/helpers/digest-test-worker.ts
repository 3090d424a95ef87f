// A digest thread entry for tests of the digest's supervision (supervisor.ts): the real digest (thread.ts), whose
// symbolicator misbehaves on events marked in `extra.digest_test`, as a record that no fix has foreseen would:
//   "hang"             blocks the thread's event loop for ever (synchronously, as a backtracking regex did);
//   "hang-once:<file>" blocks once (it creates <file> first), and is digested when tried again alone;
//   "throw"            throws on every attempt;
//   "crash"            ends the thread as running out of memory would;
//   "sleep:<ms>"       waits that long asynchronously (as a slow fetch does), the event loop turning meanwhile;
//   "wait:<ms>"        blocks the event loop that long without using the CPU (as a thread starved of a core is).
// Every other event is symbolicated as in production. Started through digest-test-worker.mjs (tsx from source).
import { existsSync, writeFileSync } from "node:fs";
import { runDigestThread } from "../../src/digest/thread";
import { type ProjectOptions, Symbolicator, publicFetcher } from "../../src/digest/symbolicate";

class MisbehavingSymbolicator extends Symbolicator {
  override async symbolicate(event: Record<string, unknown>, project: ProjectOptions): Promise<void> {
    const extra = event.extra as Record<string, unknown> | undefined;
    const mark = typeof extra?.digest_test === "string" ? extra.digest_test : "";
    if (mark === "hang") for (;;);
    if (mark.startsWith("hang-once:")) {
      const file = mark.slice("hang-once:".length);
      if (!existsSync(file)) {
        writeFileSync(file, "blocked once");
        for (;;);
      }
    }
    if (mark === "throw") throw new Error("the test symbolicator fails on this event");
    if (mark === "crash") process.exit(70);
    if (mark.startsWith("sleep:")) await new Promise((r) => setTimeout(r, Number(mark.slice("sleep:".length))));
    if (mark.startsWith("wait:")) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(mark.slice("wait:".length)));
    return super.symbolicate(event, project);
  }
}

await runDigestThread((store, log) => new MisbehavingSymbolicator({ artifacts: store, fetcher: publicFetcher(), log }));
