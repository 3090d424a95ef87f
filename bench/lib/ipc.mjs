// The benchmark's child processes (load generators, the seeder) talk to their parent the same way: one config message
// in; progress messages and one last {type: done} or {type: "error"} out.
import { fork } from "node:child_process";

/** In a forked child: runs `run(config)` on the parent's one message and sends back its result, or the error. */
export function answerOnce(run) {
  process.once("message", async (cfg) => {
    try {
      process.send(await run(cfg));
    } catch (e) {
      process.send({ type: "error", message: e.stack ?? String(e) });
    }
    process.disconnect();
  });
}

/**
 * Forks `file` and sends it `config`; `onMessage` sees every message but the result. Resolves with the result (the
 * message whose type is `done`) once the child has exited; rejects when it sent an error or nothing.
 */
export function forkRun(file, config, { done, onMessage = () => {}, cwd }) {
  return new Promise((resolve, reject) => {
    const child = fork(file, [], { cwd, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let result;
    child.on("message", (m) => (m.type === done || m.type === "error" ? (result = m) : onMessage(m)));
    child.once("exit", (code) =>
      result?.type === done ? resolve(result) : reject(new Error(`${file.split("/").pop()} failed (exit ${code}): ${result?.message ?? "no result"}`)),
    );
    child.send(config);
  });
}
