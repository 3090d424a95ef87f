// A young generation of its own for a worker thread. Node passes a worker's resourceLimits.maxYoungGenerationSizeMb
// to V8 as a constraint, but V8 lets the --max-semi-space-size flag win over constraints (heap.cc, ConfigureHeap):
// started by bin/faultline with --max-semi-space-size=2, every thread would get 2 MB semi-spaces. So the flag is set
// to 0 (unset) while the thread's isolate is made, and back to the process's value once the thread is online. A
// thread's heap is configured once, when its isolate is made: the main thread keeps its small young generation, and
// threads started later get the process's value again. tests/digest/thread-heap.test.ts shows both sides.
import v8 from "node:v8";
import type { Worker } from "node:worker_threads";

const SEMI_SPACE_FLAG = /^--max[-_]semi[-_]space[-_]size(?:=(\d+))?$/;

/**
 * The --max-semi-space-size (MB) this process runs with, 0 when none: node reads NODE_OPTIONS first and its command
 * line after, so the command line's wins.
 */
export function semiSpaceMb(execArgv: readonly string[], nodeOptions: string): number {
  let found = 0;
  const args = [...nodeOptions.split(/\s+/).filter(Boolean), ...execArgv];
  for (let i = 0; i < args.length; i++) {
    const m = SEMI_SPACE_FLAG.exec(args[i]!);
    if (!m) continue;
    const value = m[1] ?? args[++i];
    if (value !== undefined && /^\d+$/.test(value)) found = Number(value);
  }
  return found;
}

/**
 * Starts a worker (with `start`, which must pass resourceLimits.maxYoungGenerationSizeMb) so that its young
 * generation is the one its limits ask for, whatever --max-semi-space-size this process was started with.
 */
export function startWithOwnYoungGeneration(start: () => Worker): Worker {
  const processMb = semiSpaceMb(process.execArgv, process.env.NODE_OPTIONS ?? "");
  if (processMb === 0) return start();
  v8.setFlagsFromString("--max-semi-space-size=0");
  const restore = () => v8.setFlagsFromString(`--max-semi-space-size=${processMb}`);
  let thread: Worker;
  try {
    thread = start();
  } catch (err) {
    restore();
    throw err;
  }
  // Online: its isolate exists, its heap configured. A thread that fails before that exits: restore then.
  let restored = false;
  const once = () => {
    if (restored) return;
    restored = true;
    restore();
  };
  thread.once("online", once);
  thread.once("exit", once);
  return thread;
}
