// Streaming decoders of compressed minidump files (protocol/minidump-container.ts names the formats Relay takes):
// gzip through zlib, zstd through fzstd a slice of input at a time, xz through xz-decompress (xz-embedded in
// WebAssembly; one stream at a time in the process, its dictionary at most 64 MiB), bzip2 through seek-bzip a block
// at a time. Each hands the event loop back between steps, and none holds more than one step's output beyond what its
// reader has not taken yet: how much a file may decompress to is the reader's bound (attachment-staging.ts).
import { setImmediate as nextTurn } from "node:timers/promises";
import { Readable, Transform, type TransformCallback, pipeline } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import zlib from "node:zlib";
import { Decompress as ZstdDecompress } from "fzstd";
import Bunzip from "seek-bzip";
import * as xzModule from "xz-decompress";
import fs from "node:fs";
import { ATTACHMENT_LIMITS } from "../config/limits";
import { type MinidumpContainer, withoutContainerExtension } from "../protocol/minidump-container";
import { MAX_ZSTD_WINDOW, zstdFrameMemory } from "../protocol/content-encoding";
import { ProtocolError } from "../protocol/errors";
import { discardStaged, stageStream } from "./attachment-staging";
import type { StagedPart } from "./upload-form";

/** xz-decompress is a UMD bundle: Node's ESM loader sees its exports as the default export only, bundlers as named ones. */
const { XzReadableStream } = "default" in xzModule ? (xzModule as unknown as { default: typeof xzModule }).default : xzModule;

/** bytes; output a decoder step aims at before handing the event loop back (zstd's slices are sized to it). */
const OUTPUT_PER_STEP = 1024 * 1024;
/** bytes; the chunks decoders push. */
const OUT_CHUNK = 64 * 1024;

/** zstd (RFC 8878) fed in slices sized from what the last produced, as protocol/content-encoding.ts's ZstdSteps. */
class ZstdDecoder extends Transform {
  private decoder: ZstdDecompress | null = null;
  private slice = 16;

  private start(first: Buffer): ZstdDecompress {
    const frame = zstdFrameMemory(first);
    if (frame && "window" in frame && frame.window > MAX_ZSTD_WINDOW)
      throw new ProtocolError("invalid_minidump", `the zstd minidump asks for a window larger than ${MAX_ZSTD_WINDOW} bytes`);
    return new ZstdDecompress((chunk) => void this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
  }

  private async feed(input: Buffer, final: boolean): Promise<void> {
    this.decoder ??= this.start(input);
    let at = 0;
    do {
      const before = this.readableLength;
      const end = Math.min(input.length, at + this.slice);
      this.decoder.push(input.subarray(at, end), final && end >= input.length);
      at = end;
      const produced = this.readableLength - before;
      if (produced > OUTPUT_PER_STEP) this.slice = Math.max(16, Math.floor((this.slice * OUTPUT_PER_STEP) / produced));
      else if (produced < OUTPUT_PER_STEP / 4) this.slice = Math.min(64 * 1024, this.slice * 2);
      if (produced > 0) await nextTurn();
    } while (at < input.length && !this.destroyed);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.feed(chunk, false).then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    if (!this.decoder) return done(new Error("empty zstd file"));
    this.feed(Buffer.alloc(0), true).then(() => done(), done);
  }
}

/**
 * bzip2 a block at a time, with the calls seek-bzip's own Bunzip.decode makes (lib/index.js). A block is decoded once
 * the input holds a whole one (at most 900 kB of block data: unbzip2-stream's bound, 100,000 × level + 25,000 bytes)
 * or has ended; one block's output (up to about 46 MB of runs) is what a step may push.
 */
class Bzip2Decoder extends Transform {
  private static readonly WINDOW = 100_000 * 9 + 25_000;
  private readonly chunks: Buffer[] = [];
  private offset = 0;
  private buffered = 0;
  private bz: Bunzip | null = null;
  private ended = false;
  private out = Buffer.allocUnsafe(OUT_CHUNK);
  private outAt = 0;

  private readonly input = {
    readByte: (): number => {
      const chunk = this.chunks[0];
      if (!chunk) throw new Error("the bzip2 file is cut short");
      const byte = chunk[this.offset++]!;
      this.buffered--;
      if (this.offset >= chunk.length) {
        this.chunks.shift();
        this.offset = 0;
      }
      return byte;
    },
    read: (buffer: Uint8Array, at: number, length: number): number => {
      let n = 0;
      while (n < length && this.buffered > 0) buffer[at + n++] = this.input.readByte();
      return n === 0 ? -1 : n;
    },
    eof: (): boolean => this.buffered === 0,
  };

  private readonly output = {
    writeByte: (byte: number): void => {
      this.out[this.outAt++] = byte;
      if (this.outAt === OUT_CHUNK) this.flushOut();
    },
  };

  private flushOut(): void {
    if (this.outAt === 0) return;
    this.push(this.out.subarray(0, this.outAt));
    this.out = Buffer.allocUnsafe(OUT_CHUNK);
    this.outAt = 0;
  }

  /** One step of Bunzip.decode's loop: the stream header, a block, or the stream's end (its CRC, then maybe another). */
  private step(): void {
    if (!this.bz) {
      this.bz = new Bunzip(this.input, this.output);
      return;
    }
    if (this.bz._init_block()) {
      this.bz._read_bunzip();
      this.flushOut();
      return;
    }
    const crc = this.bz.reader.read(32) >>> 0;
    if (crc !== this.bz.streamCRC) throw new Error("the bzip2 stream's CRC does not match");
    if (this.input.eof()) this.ended = true;
    else this.bz._start_bunzip(this.input, this.output);
  }

  /** Decodes what the input holds whole; at its end (`final`), everything, or the error of what is missing. */
  private async run(final: boolean): Promise<void> {
    while (!this.ended && !this.destroyed && (final || this.buffered >= Bzip2Decoder.WINDOW)) {
      this.step();
      await nextTurn();
    }
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.ended) return done(); // after the stream: ignored, as bzip2's single-stream readers do
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    this.run(false).then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    this.run(true).then(() => done(), done);
  }
}

/** Pipes `source` into `decoder`; an error on either side ends both (and reaches whoever reads the decoder). */
function through(source: Readable, decoder: Transform): Readable {
  return pipeline(source, decoder, () => undefined);
}

/** xz-decompress is a web stream over a web stream. */
function xzDecoder(source: Readable): Readable {
  const web = new XzReadableStream(Readable.toWeb(source) as unknown as ReadableStream<Uint8Array>);
  return Readable.fromWeb(web as unknown as WebReadableStream<Uint8Array>);
}

/** The decompressed bytes of `source`, a minidump file compressed with `format`. */
export function decompressMinidump(format: MinidumpContainer, source: Readable): Readable {
  switch (format) {
    case "gzip":
      return through(source, zlib.createGunzip());
    case "zstd":
      return through(source, new ZstdDecoder());
    case "bzip2":
      return through(source, new Bzip2Decoder());
    case "xz":
      return xzDecoder(source);
  }
}

/**
 * A staged minidump file that is compressed, decoded into a new staging file, as Relay's decode_minidump: from the
 * disk (never at the client's pace), within ATTACHMENT_LIMITS.maxFileBytes decompressed (past it 413, Relay's
 * Overflow), a file that does not decompress 400 (Relay's InvalidCompressionContainer). Named without the
 * container's extension; the compressed staging file is removed either way. `gate` runs it when the intake's
 * decodes allow another (read-budget.ts).
 */
export async function decodeStagedMinidump(
  part: StagedPart,
  format: MinidumpContainer,
  dir: string,
  sync: boolean,
  gate?: <T>(run: () => Promise<T>) => Promise<T>,
): Promise<StagedPart> {
  const run = async (): Promise<StagedPart> => {
    const staged = through(fs.createReadStream(part.file), zlib.createGunzip());
    try {
      const file = await stageStream(dir, decompressMinidump(format, staged), ATTACHMENT_LIMITS.maxFileBytes, sync, { left: ATTACHMENT_LIMITS.maxFileBytes });
      return { ...file, field: part.field, filename: withoutContainerExtension(part.filename), contentType: "application/x-dmp" };
    } catch (err) {
      if (err instanceof ProtocolError && err.reason === "payload_too_large")
        throw new ProtocolError("payload_too_large", `the ${format} minidump decompresses to more than ${ATTACHMENT_LIMITS.maxFileBytes} bytes`);
      if (err instanceof ProtocolError) throw err;
      throw new ProtocolError(
        "invalid_minidump",
        `upload_file_minidump is ${format}-compressed but does not decompress: ${(err as Error).message.slice(0, 100)}`,
      );
    } finally {
      await discardStaged([part]);
    }
  };
  return gate ? gate(run) : run();
}
