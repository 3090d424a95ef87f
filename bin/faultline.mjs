#!/usr/bin/env node
// Entry point of the `faultline` command; the code is bundled into dist/cli.mjs by `npm run build`.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli.mjs", import.meta.url));
if (!existsSync(cli)) {
  console.error("faultline: not built yet; run `npm run build` first");
  process.exit(1);
}
const { main } = await import(cli);
const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
