// An attachment's download read whole (core/attachments.ts streams it piece by piece), for tests that compare bytes.
import { downloadEventAttachment } from "../../src/core/attachments";

export async function bytesOf(pieces: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const read: Uint8Array[] = [];
  for await (const piece of pieces) read.push(piece);
  return Buffer.concat(read);
}

/** downloadEventAttachment's contents, whole. */
export async function downloadBytes(...args: Parameters<typeof downloadEventAttachment>): Promise<Buffer> {
  return bytesOf((await downloadEventAttachment(...args)).body);
}
