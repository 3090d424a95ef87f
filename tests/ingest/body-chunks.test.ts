// A web API body read within its limits (web/api/body-chunks.ts, used by readCappedBytes and the multipart uploads):
// a body that stops arriving is a 408 after the idle timeout (a body shorter than its Content-Length held its request
// for Node's 5-minute request timeout), one past the limit a 413, and a whole one its chunks.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isAppError } from "../../src/core/errors";
import { bodyChunks } from "../../src/web/api/body-chunks";

/** A PUT whose body sends `parts` and then, unless `close`, nothing more (a client that stopped mid-body). */
function request(parts: string[], close: boolean): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const p of parts) controller.enqueue(new TextEncoder().encode(p));
      if (close) controller.close();
    },
  });
  return new Request("http://faultline.test/api/0/issues/1/", { method: "PUT", body, duplex: "half" } as RequestInit);
}

const read = async (req: Request, maxBytes: number, idleMs: number, deadlineMs?: number) => {
  const chunks: Uint8Array[] = [];
  for await (const c of bodyChunks(req, maxBytes, idleMs, deadlineMs)) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
};

const codeOf = (err: unknown) => (isAppError(err) ? err.code : String(err));

test("a body that stops arriving is a 408 once the idle timeout passes, not a request held for minutes", async () => {
  const started = performance.now();
  await assert.rejects(read(request(["{}"], false), 1000, 200), (err) => codeOf(err) === "request_timeout");
  assert.ok(performance.now() - started < 5_000, "answered within moments of the timeout");
});

test("a body past the limit is a 413; a whole body is its bytes", async () => {
  await assert.rejects(read(request(["x".repeat(600), "x".repeat(600)], true), 1000, 1000), (err) => codeOf(err) === "payload_too_large");
  assert.equal(await read(request(['{"a":', "1}"], true), 1000, 1000), '{"a":1}');
});

test("a body whose connection ends midway (the client gave up) is a 400 of the client's, not an error of Faultline's", async () => {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("{"));
      setTimeout(() => controller.error(new Error("aborted")), 10);
    },
  });
  const req = new Request("http://faultline.test/api/0/issues/1/", { method: "PUT", body, duplex: "half" } as RequestInit);
  await assert.rejects(
    read(req, 1000, 1000),
    (err) => codeOf(err) === "bad_request" && /ended before it was complete \(aborted\)/.test((err as Error).message),
  );
});

test("a body trickling a byte at a time, never idle, is a 408 once its deadline passes", async () => {
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setInterval(() => controller.enqueue(new TextEncoder().encode(" ")), 20);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  const req = new Request("http://faultline.test/api/0/issues/1/", { method: "PUT", body, duplex: "half" } as RequestInit);
  const started = performance.now();
  await assert.rejects(
    read(req, 100_000, 1000, 300),
    (err) => codeOf(err) === "request_timeout" && /did not arrive within 0.3 seconds/.test((err as Error).message),
  );
  clearInterval(timer);
  assert.ok(performance.now() - started < 5_000);
});
