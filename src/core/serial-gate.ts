// Runs tasks one at a time, with a bounded line of waiting ones; past it, `full()` is thrown at once. For work whose
// memory is large next to its request, so that requests arriving together wait their turn instead of adding up.
export type SerialGate = <T>(task: () => Promise<T>) => Promise<T>;

export function serialGate(maxWaiting: number, full: () => Error): SerialGate {
  let tail: Promise<unknown> = Promise.resolve();
  let waiting = 0;
  return <T>(task: () => Promise<T>): Promise<T> => {
    if (waiting >= maxWaiting) return Promise.reject(full());
    waiting++;
    const run = tail.then(() => {
      waiting--;
      return task();
    });
    tail = run.catch(() => undefined);
    return run;
  };
}
