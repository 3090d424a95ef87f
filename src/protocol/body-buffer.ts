// A request body's bytes as they arrive (from the socket, or out of a decompressor), within a limit. Small bodies, the
// usual case, are kept as their chunks and joined once. A body that grows past ARENA_THRESHOLD moves into one
// allocation large enough that the C library maps it on its own, outside its heap, and unmaps it when it is freed.
// Thousands of 16-64 KiB chunks held at once would instead be scattered over the allocator's heap, which it does not
// give back to the system: a burst of decompression bombs left the server at 1 GB of memory for good.

/** bytes (1 MiB); past this a body moves into a mapped arena. Events are at most 1 MiB, so most bodies never do. */
const ARENA_THRESHOLD = 1024 * 1024;
/**
 * bytes (33 MiB); the smallest arena. glibc serves an allocation from its own mapping once it is at least its mmap
 * threshold, which it raises dynamically up to 32 MiB on 64-bit systems; above that every allocation is mapped and
 * freed back to the system. Only the pages written count against memory. `npm start` fixes the threshold at 128 KiB
 * (MALLOC_MMAP_THRESHOLD_), which makes any arena mapped; this size keeps it so for a server started without that
 * environment, and keeps the body in one piece either way.
 */
const MIN_ARENA = 33 * 1024 * 1024;

export class BodyBuffer {
  private parts: Uint8Array[] = [];
  private arena: Buffer | null = null;
  private length = 0;

  constructor(private readonly limit: number) {}

  get size(): number {
    return this.length;
  }

  /** Adds a chunk; false (and nothing added) when the body would pass its limit. */
  push(chunk: Uint8Array): boolean {
    const size = this.length + chunk.byteLength;
    if (size > this.limit) return false;
    if (this.arena === null && size > ARENA_THRESHOLD) this.moveToArena(Math.min(this.limit, Math.max(MIN_ARENA, size)));
    if (this.arena !== null) {
      if (size > this.arena.length) this.moveToArena(this.limit);
      this.arena.set(chunk, this.length);
    } else this.parts.push(chunk);
    this.length = size;
    return true;
  }

  /** The body so far, as one buffer (sharing the arena's memory when there is one). */
  bytes(): Buffer {
    if (this.arena !== null) return this.arena.subarray(0, this.length);
    const only = this.parts.length === 1 ? this.parts[0]! : null;
    if (only) return Buffer.isBuffer(only) ? only : Buffer.from(only.buffer, only.byteOffset, only.byteLength);
    return Buffer.concat(this.parts, this.length);
  }

  /** Lets go of everything held. */
  clear(): void {
    this.parts = [];
    this.arena = null;
    this.length = 0;
  }

  private moveToArena(capacity: number): void {
    const arena = Buffer.allocUnsafeSlow(capacity);
    if (this.arena !== null) this.arena.copy(arena, 0, 0, this.length);
    else {
      let at = 0;
      for (const p of this.parts) {
        arena.set(p, at);
        at += p.byteLength;
      }
    }
    this.arena = arena;
    this.parts = [];
  }
}
