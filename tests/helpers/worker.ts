// `faultline worker` as a child process, from source through tsx (tests run before any build), on a test intake's
// data dir and database.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("./faultline-cli.ts", import.meta.url));

export type WorkerProcess = {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** Resolves when it printed a line matching `pattern`; rejects if it exits first or after `timeoutMs`. */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

export function spawnWorker(dataDir: string, databaseUrl = ""): WorkerProcess {
  const child = spawn(process.execPath, ["--import", "tsx", cli, "worker"], {
    env: { ...process.env, FAULTLINE_DATA_DIR: dataDir, DATABASE_URL: databaseUrl, FAULTLINE_SECRET_KEY: "worker-test-secret-".padEnd(40, "0") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    text += d.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const waitFor = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        listeners.delete(check);
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      };
      const check = () => pattern.test(text) && done();
      const timer = setTimeout(() => done(new Error(`worker did not print ${pattern} within ${timeoutMs} ms:\n${text}`)), timeoutMs);
      listeners.add(check);
      void exited.then(({ code, signal }) => !pattern.test(text) && done(new Error(`worker exited (${code ?? signal}) before printing ${pattern}:\n${text}`)));
      check();
    });
  return { child, output: () => text, waitFor, exited };
}
