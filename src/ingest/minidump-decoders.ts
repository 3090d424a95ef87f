// Streaming decoders of compressed minidump files (protocol/minidump-container.ts names the formats Relay takes):
// gzip through zlib, zstd through fzstd a slice of input at a time. Each hands the event loop back between steps, and
// neither holds more than one step's output beyond what its reader has not taken yet: how much a file may decompress
// to is the reader's bound (attachment-staging.ts). xz and bzip2, which Relay also takes, are refused with a clear
// 400: the only xz decoder that installs from npm alone (xz-decompress, WebAssembly) kept its memory for good (67 MB
// of RSS after one 101 MiB bomb), and bzip2 decodes a whole block at once (up to about 46 MB, 0.3 s of the intake's
// event loop); crash reporters send minidumps uncompressed or gzip'd.
import { setImmediate as nextTurn } from "node:timers/promises";
import { Readable, Transform, type TransformCallback, pipeline } from "node:stream";
import zlib from "node:zlib";
import { Decompress as ZstdDecompress } from "fzstd";
import fs from "node:fs";
import { ATTACHMENT_LIMITS } from "../config/limits";
import { type MinidumpContainer, withoutContainerExtension } from "../protocol/minidump-container";
import { MAX_ZSTD_WINDOW, zstdFrameMemory } from "../protocol/content-encoding";
import { ProtocolError } from "../protocol/errors";
import { discardStaged, stageStream } from "./attachment-staging";
import type { StagedPart } from "./upload-form";

/** bytes; output a decoder step aims at before handing the event loop back (zstd's slices are sized to it). */
const OUTPUT_PER_STEP = 1024 * 1024;

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

/** Pipes `source` into `decoder`; an error on either side ends both (and reaches whoever reads the decoder). */
function through(source: Readable, decoder: Transform): Readable {
  return pipeline(source, decoder, () => undefined);
}

/** The formats decoded; the others Relay names are refused (see the top of this file). */
type Decoded = Extract<MinidumpContainer, "gzip" | "zstd">;
const isDecoded = (format: MinidumpContainer): format is Decoded => format === "gzip" || format === "zstd";

/** The decompressed bytes of `source`, a minidump file compressed with `format`. */
export function decompressMinidump(format: Decoded, source: Readable): Readable {
  return format === "gzip" ? through(source, zlib.createGunzip()) : through(source, new ZstdDecoder());
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
  if (!isDecoded(format)) {
    await discardStaged([part]);
    throw new ProtocolError(
      "invalid_minidump",
      `upload_file_minidump is ${format}-compressed, which Faultline does not take: send it uncompressed, or compressed with gzip or zstd`,
    );
  }
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
