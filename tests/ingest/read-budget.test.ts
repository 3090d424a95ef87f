// hostile input #8: what bounds the intake's memory under a burst of large or bomb-like bodies (the corpus test in
// tests/hostile measures it on a production server): the read budget all requests share, and the body buffer that
// keeps a large body in one allocation, freed whole.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ReadBudget } from "../../src/ingest/read-budget";
import { BodyBuffer } from "../../src/protocol/body-buffer";

const MiB = 1024 * 1024;

describe("hostile input #8: the intake's memory is bounded across requests", () => {
  test("requests together hold at most the budget; each gives its share back when it is answered", () => {
    const budget = new ReadBudget(10 * MiB, 2);
    const a = budget.lease();
    const b = budget.lease();
    assert.equal(a.options.hold(6 * MiB), true);
    assert.equal(b.options.hold(4 * MiB), true);
    assert.equal(b.options.hold(1), false, "past the budget");
    assert.equal(budget.heldBytes, 10 * MiB);
    a.release();
    assert.equal(budget.heldBytes, 4 * MiB);
    assert.equal(b.options.hold(6 * MiB), true, "what one request gave back, another may take");
    b.release();
    b.release(); // twice is harmless
    assert.equal(budget.heldBytes, 0);
  });

  test("no more large decodes run at once than allowed; the others wait their turn and none is lost", async () => {
    const budget = new ReadBudget(MiB, 2);
    let running = 0;
    let most = 0;
    const finish: (() => void)[] = [];
    const decode = (i: number) =>
      budget.lease().options.gate(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => finish.push(resolve));
        running--;
        return i;
      });
    const all = Promise.all([0, 1, 2, 3, 4].map(decode));
    for (let done = 0; done < 5; done++) {
      while (finish.length === 0) await new Promise((r) => setImmediate(r));
      assert.ok(running <= 2);
      finish.shift()!();
    }
    assert.deepEqual(await all, [0, 1, 2, 3, 4]);
    assert.equal(most, 2);
  });

  test("a body past 1 MiB moves into one allocation of its own; it never passes its limit, and what it returns is what was pushed", () => {
    const limit = 40 * MiB;
    const body = new BodyBuffer(limit);
    const size = 64 * 1024;
    let expected = 0;
    // Fresh chunks, as a socket or a decompressor hands them over.
    for (let i = 0; expected + size <= 3 * MiB; i++) {
      assert.equal(body.push(Buffer.alloc(size, i % 251)), true);
      expected += size;
    }
    const bytes = body.bytes();
    assert.equal(bytes.length, expected);
    assert.ok(bytes.buffer.byteLength >= 33 * MiB, "one allocation above glibc's largest mmap threshold, so it is mapped and freed whole");
    for (let i = 0; i * size < expected; i++) assert.equal(bytes[i * size + size - 1], i % 251);
    assert.equal(new BodyBuffer(10).push(Buffer.alloc(11)), false, "past the limit nothing is added");
    const small = new BodyBuffer(limit);
    small.push(Buffer.from("abc"));
    small.push(Buffer.from("def"));
    assert.equal(small.bytes().toString(), "abcdef", "small bodies are joined as they are");
  });
});
