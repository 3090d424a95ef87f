// `npm run build`: the Next.js production build, then the CLI and server bundled into dist/cli.mjs.
import { spawnSync } from "node:child_process";
import { build } from "esbuild";

const nextBuild = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
if (nextBuild.status !== 0) process.exit(nextBuild.status ?? 1);

await build({
  entryPoints: ["src/cli/main.ts"],
  outfile: "dist/cli.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
console.log("built dist/cli.mjs");
