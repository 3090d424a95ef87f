// A node:test reporter beside TAP in `npm test`: once the run is over, the files whose tests took longest, so that
// CI's log says which files to split or move when the run grows. A file's time is the sum of its top-level tests
// (describe blocks included, with their hooks); the second or two a file spends loading its modules is not in it.

/** How many of the longest files are listed. */
const LISTED = 15;

/** @param {AsyncIterable<{ type: string; data: { nesting: number; file?: string; details?: { duration_ms?: number } } }>} source */
export default async function* fileTimes(source) {
  /** @type {Map<string, { ms: number; tests: number }>} */
  const files = new Map();
  for await (const event of source) {
    if ((event.type !== "test:pass" && event.type !== "test:fail") || event.data.nesting !== 0 || !event.data.file) continue;
    const file = files.get(event.data.file) ?? { ms: 0, tests: 0 };
    file.ms += event.data.details?.duration_ms ?? 0;
    file.tests += 1;
    files.set(event.data.file, file);
  }
  const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
  const total = rows.reduce((sum, [, f]) => sum + f.ms, 0);
  yield `# ${rows.length} files, ${(total / 1000).toFixed(0)} s of tests; the longest:\n`;
  for (const [name, f] of rows.slice(0, LISTED)) {
    yield `# ${(f.ms / 1000).toFixed(1).padStart(7)} s ${String(f.tests).padStart(4)} top-level tests  ${name.replace(`${process.cwd()}/`, "")}\n`;
  }
}
