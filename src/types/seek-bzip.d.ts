// seek-bzip 2.0.0 ships no types. Faultline drives its decoder a block at a time (ingest/minidump-decoders.ts) with
// the same calls its own Bunzip.decode makes in lib/index.js; these are the parts used.
declare module "seek-bzip" {
  type InputStream = { readByte(): number; read(buffer: Uint8Array, offset: number, length: number): number; eof(): boolean };
  type OutputStream = { writeByte(byte: number): void };
  class Bunzip {
    constructor(input: InputStream, output: OutputStream);
    streamCRC: number;
    reader: { read(bits: number): number };
    _init_block(): boolean;
    _read_bunzip(): number;
    _start_bunzip(input: InputStream, output: OutputStream): void;
  }
  export = Bunzip;
}
