// The digest thread's report that a batch added notifications reaches the process's sender through the supervisor
// (the same path in `faultline start` and `faultline worker`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { superviseDigest } from "../../src/digest/supervisor";

test("issue 17 delivery: the digest thread's notifications message wakes the sender of its process", async () => {
  let woken = 0;
  let heard: () => void = () => undefined;
  const wake = new Promise<void>((resolve) => (heard = resolve));
  const digest = superviseDigest({
    data: { spoolDir: "/nonexistent", db: { dialect: "sqlite", file: ":memory:" } },
    onPosition: () => undefined,
    log: () => undefined,
    entry: new URL("./wake-entry.mjs", import.meta.url),
    onNotifications: () => {
      woken++;
      heard();
    },
  });
  await wake;
  await digest.stop();
  assert.equal(woken, 1);
});
