// The stack trace rules' per-stack memory (grouping/enhancements/apply.ts): a stack whose key is past its bound (long
// paths and names, as a hostile 1 MiB event could send) is matched again every time, and groups the same each time as
// a short stack that is remembered.
import assert from "node:assert/strict";
import { test } from "node:test";
import { groupEvent } from "../../src/digest/grouping";

const event = (frames: number, nameLength: number) => ({
  platform: "javascript",
  exception: {
    values: [
      {
        type: "TypeError",
        value: "x is undefined",
        stacktrace: {
          frames: Array.from({ length: frames }, (_, i) => ({
            abs_path: `https://shop.example.com/_next/static/chunks/${"p".repeat(nameLength)}-${i}.js`,
            function: `${"f".repeat(nameLength)}${i}`,
            lineno: 1,
            colno: i + 1,
            in_app: i % 2 === 0,
          })),
        },
      },
    ],
  },
});

test("a stack past the memory's key bound (200 frames with 200-character names) groups the same every time", () => {
  const long = JSON.stringify(event(200, 200));
  const first = groupEvent(JSON.parse(long));
  assert.ok(first.hashes.length > 0);
  assert.deepEqual(groupEvent(JSON.parse(long)), first);
  assert.deepEqual(groupEvent(JSON.parse(long)), first);
});

test("a short stack, remembered after its first event, groups the same as the first time", () => {
  const short = JSON.stringify(event(5, 10));
  const first = groupEvent(JSON.parse(short));
  assert.deepEqual(groupEvent(JSON.parse(short)), first);
});
