// A response body read from an async iterable, one piece per pull: nothing is read ahead of what the client takes
// (Next writes each piece and waits for the socket to drain before it reads the next), and a client that goes away
// ends the iteration, releasing what it holds. Strings are sent as UTF-8.
import "server-only";

export function iterableBody(pieces: AsyncIterable<Uint8Array | string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = pieces[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
