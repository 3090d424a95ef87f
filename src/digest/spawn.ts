// Starts the digest in a worker thread (on the second core) and restarts it if it dies. The built worker sits next
// to dist/cli.mjs; from source (tests), the TypeScript entry runs through tsx. The process holds the spool's digest
// lock (lock.ts) for as long as the thread may run, so `faultline worker` cannot consume the same spool meanwhile.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { lockDigest } from "./lock";
import type { DigestWorkerData, DigestWorkerMessage } from "./worker";

export type DigestHandle = { stop: () => Promise<void> };

function workerEntry(): URL {
  const built = new URL("./digest-worker.mjs", import.meta.url);
  return existsSync(fileURLToPath(built)) ? built : new URL("./worker-from-source.mjs", import.meta.url);
}

/** Throws DigestLockedError when another digest consumes the spool already. */
export function startDigestWorker(data: DigestWorkerData, onPosition: (position: number) => void, log: (line: string) => void): DigestHandle {
  const lock = lockDigest(data.spoolDir, "the digest thread of faultline start");
  const entry = workerEntry();
  let worker: Worker;
  let stopping = false;
  const launch = () => {
    if (stopping) return;
    worker = new Worker(entry, { workerData: data });
    worker.on("message", (m: DigestWorkerMessage) => (m.type === "position" ? onPosition(m.position) : log(m.line)));
    worker.on("error", (err) => log(`faultline: digest worker failed: ${err.stack ?? err.message}`));
    worker.on("exit", (code) => {
      if (stopping) return;
      log(`faultline: digest worker exited (${code}); restarting in 1 s`);
      setTimeout(launch, 1000).unref();
    });
  };
  launch();
  return {
    stop: async () => {
      await new Promise<void>((resolve) => {
        stopping = true;
        const timer = setTimeout(() => void worker.terminate().then(() => resolve()), 5000);
        worker.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        worker.postMessage({ type: "stop" });
      });
      lock.release();
    },
  };
}
