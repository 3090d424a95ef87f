// `npm run lint:size`: no source file over MAX_LINES lines (issue 22: a file does one thing; a long file is a sign it
// does several). Reads the code the repository tracks (src, tests, bench, scripts, bin), after Prettier's formatting.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/** lines; the bound the project's design notes set for a file that does one thing. */
const MAX_LINES = 400;
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;

const files = execFileSync("git", ["ls-files", "-z", "--", "src", "tests", "bench", "scripts", "bin"], { encoding: "utf8" })
  .split("\0")
  .filter((f) => CODE.test(f) && existsSync(f));
const long = files
  .map((f) => ({ f, lines: readFileSync(f, "utf8").split("\n").length - 1 }))
  .filter((x) => x.lines > MAX_LINES)
  .sort((a, b) => b.lines - a.lines);
for (const { f, lines } of long) console.error(`${f}: ${lines} lines (at most ${MAX_LINES})`);
if (long.length > 0) process.exit(1);
console.log(`${files.length} files, none over ${MAX_LINES} lines`);
