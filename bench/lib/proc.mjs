// Process helpers for the benchmark (Linux /proc): peak RSS, CPU time, which pid listens on a port, waiting for a
// server to answer, and stopping a child process cleanly.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** {hwmMB, rssMB} from /proc/<pid>/status (VmHWM is the peak resident set since the process started). */
export function memory(pid) {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k) => Number(s.match(new RegExp(`^${k}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN);
  return { hwmMB: kb("VmHWM") / 1024, rssMB: kb("VmRSS") / 1024 };
}

/** User + system CPU seconds used so far by pid (all its threads), or by its thread `tid` alone. */
export function cpuSeconds(pid, tid) {
  const stat = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from #3 (state) on
  return (Number(f[11]) + Number(f[12])) / CLK_TCK; // utime (#14), stime (#15)
}

/** pid and its descendants (through /proc/<pid>/task/<tid>/children). */
export function descendants(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const tid of readdirSync(`/proc/${out[i]}/task`)) {
        const kids = readFileSync(`/proc/${out[i]}/task/${tid}/children`, "utf8").trim();
        if (kids) out.push(...kids.split(/\s+/).map(Number));
      }
    } catch {
      /* gone */
    }
  }
  return out;
}

/** The pid, among rootPid and its descendants, that holds the listening TCP socket on `port` (the real server). */
export function listenerPid(rootPid, port) {
  const inodes = new Set();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const c = line.trim().split(/\s+/);
      if (c.length > 9 && c[3] === "0A" && parseInt(c[1].split(":").pop(), 16) === port) inodes.add(c[9]);
    }
  }
  for (const pid of descendants(rootPid)) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const m = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/);
        if (m && inodes.has(m[1])) return pid;
      }
    } catch {
      /* gone or not ours */
    }
  }
  return rootPid;
}

/** Polls `url` until it answers 2xx; fails early if `child` exits. */
export async function waitHttp(url, child, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${url}: the server exited (${child.exitCode ?? child.signalCode}) before answering`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url}: no answer within ${timeoutMs / 1000} s`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code or signal. */
export function stopChild(child, graceMs = 10_000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? child.signalCode);
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", (code, sig) => {
      clearTimeout(kill);
      resolve(code ?? sig);
    });
    child.kill("SIGTERM");
  });
}

/** Children still running that stopOnInterrupt was given. */
const running = new Set();
let listening = false;

/**
 * Ends `child` (SIGTERM) when this process is interrupted (SIGINT, SIGTERM, SIGHUP) or exits, so a bench or test
 * that is killed leaves no server, node or nginx behind; then the signal does what it would have done. Returns child.
 */
export function stopOnInterrupt(child) {
  if (!listening) {
    listening = true;
    const endAll = () => {
      for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill("SIGTERM");
    };
    process.once("exit", endAll);
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
      process.once(signal, () => {
        endAll();
        process.kill(process.pid, signal); // the listener is gone (once): the default action ends this process
      });
  }
  running.add(child);
  child.once("exit", () => running.delete(child));
  return child;
}

/** CPU seconds the whole machine has spent busy so far (all cores; /proc/stat, idle and iowait excluded). */
export function machineBusySeconds() {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = f;
  return (user + nice + system + irq + softirq + (steal ?? 0)) / CLK_TCK;
}
