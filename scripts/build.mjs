// `npm run build`: the Next.js production build, then the CLI and server bundled into dist/cli.mjs.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { build } from "esbuild";

const nextBuild = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
if (nextBuild.status !== 0) process.exit(nextBuild.status ?? 1);

// The first-load JavaScript of every route, gzipped (tests/build/bundle-budget.test.ts holds it to the budget).
const { tsImport } = await import("tsx/esm/api");
const { firstLoadSizes, firstLoadTable } = await tsImport("./first-load-js.ts", import.meta.url);
console.log(`\n${firstLoadTable(firstLoadSizes(process.env.FAULTLINE_DIST_DIR || ".next"))}\n`);

// Chunks are named by their content: a build removes the last one's.
rmSync("dist", { recursive: true, force: true });
await build({
  // The CLI (the server and `faultline worker` included), and the digest's worker thread, which the server starts
  // from dist/digest-worker.mjs.
  // The write-ahead log's checkpoint thread (src/storage/wal-checkpointer.ts) is plain JavaScript, built as it is.
  entryPoints: { cli: "src/cli/main.ts", "digest-worker": "src/digest/worker.ts", "wal-checkpoint-thread": "src/storage/wal-checkpoint-thread.mjs" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  // Code the entries share, and each command's own, in chunks of their own: `faultline start` loads only what the
  // server needs (not the sign-in library the account commands bring), which bench:start measures. The chunks sit
  // beside the entries, so a module that finds a thread entry next to itself (import.meta.url) finds it from a chunk too.
  splitting: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // The packages are bundled too: a module graph of a few chunks loads in a fraction of the time of the thousand
  // files of node_modules (kysely alone: 90 ms less at each start, bench:start). Left outside: Next.js (the server
  // runs the installed one, with the build it made), the native SQLite binding, the PostgreSQL driver (loaded only
  // on PostgreSQL, from node_modules) and the sign-in library (the account commands' alone).
  external: ["next", "better-sqlite3", "pg", "better-auth"],
  // Bundled CommonJS packages require Node's own modules: an ES module has no `require` of its own.
  banner: { js: 'import { createRequire as __faultlineCreateRequire } from "node:module"; const require = __faultlineCreateRequire(import.meta.url);' },
  sourcemap: true,
  logLevel: "warning",
});
console.log("built dist/cli.mjs, dist/digest-worker.mjs and dist/wal-checkpoint-thread.mjs");
