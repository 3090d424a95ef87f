// The digest thread's young generation (DIGEST_LIMITS.youngGenerationMb) holds although bin/faultline starts the
// process with --max-semi-space-size=2, which V8 would otherwise apply to every thread (digest/thread-heap.ts).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { semiSpaceMb } from "../../src/digest/thread-heap";

test("the process's --max-semi-space-size is read from its node options, either spelling, either form", () => {
  assert.equal(semiSpaceMb([], ""), 0);
  assert.equal(semiSpaceMb(["--max-semi-space-size=2", "--max-old-space-size=384"], ""), 2);
  assert.equal(semiSpaceMb(["--max_semi_space_size", "4"], ""), 4);
  assert.equal(semiSpaceMb(["--max-old-space-size=384"], "--max-semi-space-size=8 --enable-source-maps"), 8);
  assert.equal(semiSpaceMb(["--max-semi-space-size=2"], "--max-semi-space-size=16"), 2, "the command line wins over NODE_OPTIONS, as in node");
  assert.equal(semiSpaceMb(["--max-semi-space-size=lots"], ""), 0, "not a number: ignored");
});

test("a thread started with its own young generation gets it; the main thread and threads started plainly keep the process's", () => {
  const out = execFileSync(process.execPath, ["--max-semi-space-size=2", "--import", "tsx", "tests/digest/fixtures/thread-heap-probe.ts"], {
    encoding: "utf8",
    timeout: 120_000,
  });
  const { plain, own, after, main } = JSON.parse(out.trim().split("\n").pop()!) as { plain: number; own: number; after: number; main: number };
  // New space is two semi-spaces: 2 MB each at most under the flag, up to 8 MB each with a 24 MB young generation.
  assert.ok(plain <= 4, `a thread started plainly keeps the flag's semi-space: ${plain} MB`);
  assert.ok(own > 4 && own <= 16, `a thread started with its own young generation grows past the flag's: ${own} MB`);
  assert.ok(after <= 4, `the flag is restored for threads started later: ${after} MB`);
  assert.ok(main <= 4, `the main thread keeps the flag's: ${main} MB`);
});
