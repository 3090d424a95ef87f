// Compressed minidump files, as Relay recognizes them (getsentry/relay relay-server/src/endpoints/minidump.rs:
// decoder_from, remove_container_extension): by the magic bytes at the start of the file, never by its name or type.
// gzip 1F 8B, xz FD 37 7A 58 5A 00, bzip2 42 5A 68 ("BZh"), zstd 28 B5 2F FD; anything else is taken as it is.

export type MinidumpContainer = "gzip" | "xz" | "bzip2" | "zstd";

const MAGIC: [MinidumpContainer, number[]][] = [
  ["gzip", [0x1f, 0x8b]],
  ["xz", [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ["bzip2", [0x42, 0x5a, 0x68]],
  ["zstd", [0x28, 0xb5, 0x2f, 0xfd]],
];

/** The compression a minidump file's first bytes name, or null for a file to take as it is. */
export function containerOf(head: Uint8Array): MinidumpContainer | null {
  for (const [format, magic] of MAGIC) if (head.byteLength >= magic.length && magic.every((b, i) => head[i] === b)) return format;
  return null;
}

/** The file name without a container's extension (Relay: .gz, .xz, .bz2, .zst), so the stored dump is named as one. */
export function withoutContainerExtension(name: string): string {
  for (const suffix of [".gz", ".xz", ".bz2", ".zst"]) if (name.endsWith(suffix) && name.length > suffix.length) return name.slice(0, -suffix.length);
  return name;
}
