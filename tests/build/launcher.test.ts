// The `faultline` command (bin/faultline), on the build (scripts/test.sh runs tests/build after `npm run build`): it
// becomes the Node process itself (exec: the pid it was started as runs node, nothing stays resident beside it), with
// the heap flags and glibc's memory settings that `npm start` and the systemd unit rely on; FAULTLINE_NODE_FLAGS
// replaces the flags, and memory settings already in the environment are kept. A real `faultline worker` on a fresh
// SQLite data dir, which waits for the spool until SIGTERM.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";

/** Starts `bin/faultline worker`; returns the child once its process runs node with Faultline's entry. */
async function worker(env: Record<string, string | undefined>): Promise<{ child: ChildProcess; argv: string[]; environ: Map<string, string> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "faultline-launcher-"));
  const child = spawn("bin/faultline", ["worker"], {
    env: { ...process.env, DATABASE_URL: "", FAULTLINE_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  child.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
  // Up, with its signal handlers: it says it waits for the spool.
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 30_000;
  while (!out.includes("waiting for the spool")) {
    assert.ok(Date.now() < deadline && child.exitCode === null, `faultline worker did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  for (;;) {
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    if (argv.some((a) => a.endsWith("bin/faultline.mjs"))) {
      const environ = new Map(
        readFileSync(`/proc/${child.pid}/environ`, "utf8")
          .split("\0")
          .filter(Boolean)
          .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)] as [string, string]),
      );
      return { child, argv, environ };
    }
    assert.ok(Date.now() < deadline, `the launcher did not become node: ${argv.join(" ")}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const [code] = (await exited) as [number | null];
  return code;
}

test("bin/faultline becomes node itself, with the heap flags and memory settings", async () => {
  const { child, argv, environ } = await worker({ MALLOC_MMAP_THRESHOLD_: undefined, MALLOC_TRIM_THRESHOLD_: undefined });
  try {
    assert.equal(path.basename(argv[0]!), "node");
    assert.deepEqual(argv.slice(1, 3), ["--max-semi-space-size=2", "--max-old-space-size=384"]);
    assert.equal(argv[3], path.resolve("bin/faultline.mjs"));
    assert.equal(argv[4], "worker");
    assert.equal(environ.get("MALLOC_MMAP_THRESHOLD_"), "131072");
    assert.equal(environ.get("MALLOC_TRIM_THRESHOLD_"), "131072");
  } finally {
    assert.equal(await stop(child), 0);
  }
});

test("FAULTLINE_NODE_FLAGS replaces the flags; memory settings in the environment are kept", async () => {
  const { child, argv, environ } = await worker({ FAULTLINE_NODE_FLAGS: "--max-old-space-size=512", MALLOC_TRIM_THRESHOLD_: "65536" });
  try {
    assert.deepEqual(argv.slice(1, 3), ["--max-old-space-size=512", path.resolve("bin/faultline.mjs")]);
    assert.equal(environ.get("MALLOC_TRIM_THRESHOLD_"), "65536");
    assert.equal(environ.get("MALLOC_MMAP_THRESHOLD_"), "131072");
  } finally {
    assert.equal(await stop(child), 0);
  }
});

test("createuser takes a password that begins with a dash in the --password=value form (generated passwords may)", async () => {
  // The benches' and the several-nodes suite's users have random base64url passwords; one in 64 begins with "-", which
  // `--password <value>` reads as an option (a fresh-clone CI failed so). They pass `--password=<value>`.
  const dataDir = mkdtempSync(path.join(tmpdir(), "faultline-createuser-"));
  try {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn("bin/faultline", args, {
          env: { ...process.env, DATABASE_URL: "", FAULTLINE_DATA_DIR: dataDir },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
        child.once("exit", (code) => resolve({ code, out }));
      });
    const made = await run(["createuser", "--email", "dash@example.com", "--password=-Kx3dQ9vLmZ2pT7w", "--superuser", "--no-input"]);
    assert.equal(made.code, 0, made.out);
    assert.ok(!made.out.includes("-Kx3dQ9vLmZ2pT7w"), "the password is not printed");
    const token = await run(["createtoken", "--email", "dash@example.com", "--name", "check"]);
    assert.equal(token.code, 0, token.out);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
