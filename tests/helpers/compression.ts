// Compressed bodies for the protocol tests, built without holding their decompressed size in memory: decompression
// bombs in every Content-Encoding, and zstd frames written by hand (Node 20 has no zstd compressor). The zstd frames use
// only raw and RLE blocks (RFC 8878 §3.1.1.2); Debian's `zstd -d` decodes them, and the 1 GiB bombs were checked with
// `gzip -dc`, `zstd -dc` and Python's zlib to inflate to exactly 1 GiB of zeros.
import zlib from "node:zlib";

export const MiB = 1024 * 1024;
const zeros = Buffer.alloc(MiB);

export type ZstdBlock = { rle: number; size: number } | { raw: Uint8Array };

/**
 * One zstd frame: magic, a frame header with only a window descriptor (exponent << 3 | mantissa: 0x38 is 128 KiB,
 * 0x98 is 512 MiB), then the blocks, the last one flagged. No content size, no checksum.
 */
export function zstdFrame(blocks: ZstdBlock[], windowDescriptor = 0x38): Buffer {
  const out: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, windowDescriptor])];
  blocks.forEach((block, i) => {
    const last = i === blocks.length - 1 ? 1 : 0;
    const [type, size, body] = "rle" in block ? [1, block.size, Buffer.from([block.rle])] : [0, block.raw.length, Buffer.from(block.raw)];
    const header = last | (type << 1) | (size << 3);
    out.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]), body);
  });
  return Buffer.concat(out);
}

/** `mib` MiB of zeros as zstd: one 4-byte RLE block per 128 KiB (32 KiB on the wire per GiB). */
export const zstdZeros = (mib: number) => zstdFrame(Array.from({ length: mib * 8 }, () => ({ rle: 0, size: 128 * 1024 })));

/**
 * `mib` MiB of zeros as raw deflate: one MiB compressed with a sync flush (so it ends byte-aligned and refers only to
 * itself), repeated, then an empty final block. About 1 KiB per MiB.
 */
export function deflateRawZeros(mib: number): Buffer {
  const oneMiB = zlib.deflateRawSync(zeros, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return Buffer.concat([...Array.from({ length: mib }, () => oneMiB), Buffer.from([0x03, 0x00])]);
}

/** RFC 1952: header, the raw deflate zeros, CRC-32 and size (mod 2^32), little-endian. */
export function gzipZeros(mib: number): Buffer {
  let crc = 0;
  for (let i = 0; i < mib; i++) crc = zlib.crc32(zeros, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((mib * MiB) % 2 ** 32, 4);
  return Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]), deflateRawZeros(mib), trailer]);
}

/** RFC 1950: header 78 9c, the raw deflate zeros, Adler-32 big-endian (for zeros: a = 1, b = length mod 65521). */
export function zlibZeros(mib: number): Buffer {
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((mib * MiB) % 65521) * 65536 + 1) >>> 0, 0);
  return Buffer.concat([Buffer.from([0x78, 0x9c]), deflateRawZeros(mib), adler]);
}

/** `mib` MiB of zeros as brotli, streamed through the compressor one MiB at a time at quality 1 (~190 KiB per GiB). */
export async function brotliZeros(mib: number): Promise<Buffer> {
  const br = zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
  const out: Buffer[] = [];
  br.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => br.on("end", resolve).on("error", reject));
  for (let i = 0; i < mib; i++) if (!br.write(zeros)) await new Promise((resolve) => br.once("drain", resolve));
  br.end();
  await done;
  return Buffer.concat(out);
}
