// The shape of msgpack bytes, read from the type headers alone (the msgpack spec's formats) without building any value:
// how deeply it nests and how many values it holds. @msgpack/msgpack decodes without a depth bound and builds every
// level it reads (a million nested one-element arrays cost it 170 MB and 300 ms), so hostile bytes are measured first
// and refused as Relay refuses them (relay-server utils/rmp.rs: MAX_DEPTH 128). Values are decoded by the library.

export type MsgpackShape = { ok: true } | { ok: false; reason: string };

/** Bytes after the type byte, and items for containers; null for the one byte no format uses (0xc1). */
function header(bytes: Uint8Array, at: number): { head: number; body: number; items: number } | null {
  const b = bytes[at]!;
  const u8 = () => bytes[at + 1] ?? 0;
  const u16 = () => ((bytes[at + 1] ?? 0) << 8) | (bytes[at + 2] ?? 0);
  const u32 = () => (((bytes[at + 1] ?? 0) << 24) >>> 0) + (((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 8) | (bytes[at + 4] ?? 0));
  if (b <= 0x7f || b >= 0xe0) return { head: 1, body: 0, items: 0 };
  if (b <= 0x8f) return { head: 1, body: 0, items: (b & 0x0f) * 2 };
  if (b <= 0x9f) return { head: 1, body: 0, items: b & 0x0f };
  if (b <= 0xbf) return { head: 1, body: b & 0x1f, items: 0 };
  switch (b) {
    case 0xc0:
    case 0xc2:
    case 0xc3:
      return { head: 1, body: 0, items: 0 };
    case 0xc4:
    case 0xd9:
      return { head: 2, body: u8(), items: 0 };
    case 0xc5:
    case 0xda:
      return { head: 3, body: u16(), items: 0 };
    case 0xc6:
    case 0xdb:
      return { head: 5, body: u32(), items: 0 };
    case 0xc7:
      return { head: 3, body: u8(), items: 0 };
    case 0xc8:
      return { head: 4, body: u16(), items: 0 };
    case 0xc9:
      return { head: 6, body: u32(), items: 0 };
    case 0xca:
      return { head: 1, body: 4, items: 0 };
    case 0xcb:
      return { head: 1, body: 8, items: 0 };
    case 0xcc:
    case 0xd0:
      return { head: 1, body: 1, items: 0 };
    case 0xcd:
    case 0xd1:
      return { head: 1, body: 2, items: 0 };
    case 0xce:
    case 0xd2:
      return { head: 1, body: 4, items: 0 };
    case 0xcf:
    case 0xd3:
      return { head: 1, body: 8, items: 0 };
    case 0xd4:
    case 0xd5:
    case 0xd6:
    case 0xd7:
    case 0xd8:
      return { head: 2, body: 2 ** (b - 0xd4), items: 0 };
    case 0xdc:
      return { head: 3, body: 0, items: u16() };
    case 0xdd:
      return { head: 5, body: 0, items: u32() };
    case 0xde:
      return { head: 3, body: 0, items: u16() * 2 };
    case 0xdf:
      return { head: 5, body: 0, items: u32() * 2 };
    default:
      return null;
  }
}

/**
 * Whether `bytes`, one msgpack value or several in a row, nest at most `maxDepth` deep and hold at most `maxValues`
 * values. A value cut short is left to the decoder, which reports it; a container declaring more items than bytes
 * remain is refused here (each item takes a byte at least).
 */
export function msgpackShape(bytes: Uint8Array, maxDepth: number, maxValues: number): MsgpackShape {
  /** Items still to read in each open container, innermost last. */
  const open: number[] = [];
  let values = 0;
  let at = 0;
  while (at < bytes.length) {
    const h = header(bytes, at);
    if (!h) return { ok: false, reason: `byte 0x${bytes[at]!.toString(16)} at offset ${at} is no msgpack type` };
    if (++values > maxValues) return { ok: false, reason: `more than ${maxValues} values` };
    at += h.head + h.body;
    if (h.items > 0) {
      if (h.items > bytes.length - at) return { ok: false, reason: `a container at offset ${at - h.head} declares ${h.items} items past the end` };
      open.push(h.items);
      if (open.length > maxDepth) return { ok: false, reason: `nested deeper than ${maxDepth} levels` };
      continue;
    }
    // A whole value read: it completes its container, and maybe the containers around it.
    while (open.length > 0) {
      const left = open[open.length - 1]! - 1;
      if (left > 0) {
        open[open.length - 1] = left;
        break;
      }
      open.pop();
    }
  }
  return { ok: true };
}
