// What Faultline reads from a minidump without symbolicating it (Microsoft's MINIDUMP_HEADER, MINIDUMP_DIRECTORY,
// MINIDUMP_SYSTEM_INFO and MINIDUMP_EXCEPTION_STREAM; Breakpad and Crashpad write the same layout, little-endian):
// the signature (MDMP), when it was written, the CPU and operating system, and the exception code and address. Pure
// and bounded: every offset is checked against the bytes at hand, so a truncated or hostile file yields what it can
// and never throws. No maintained JavaScript parser exists (npm's `minidump` wraps Breakpad's native tools).

export type MinidumpInfo = {
  /** Seconds since 1970 when the dump was written (0 when unset). */
  timestamp: number;
  streams: number;
  cpu: string | null;
  os: string | null;
  osVersion: string | null;
  /** The exception code in hex (0xC0000005 on Windows, the signal number on Linux and macOS), and its usual name. */
  exception: { code: string; name: string | null; address: string; threadId: number } | null;
};

/** Minidump signatures: "MDMP" little-endian, "PMDM" from a big-endian writer (Relay accepts both). */
export function isMinidump(head: Uint8Array): boolean {
  if (head.byteLength < 4) return false;
  const s = String.fromCharCode(head[0]!, head[1]!, head[2]!, head[3]!);
  return s === "MDMP" || s === "PMDM";
}

const CPUS: Record<number, string> = { 0: "x86", 5: "arm", 9: "amd64", 12: "arm64", 0x8003: "ppc", 0x8004: "ppc64", 0x8005: "arm64" };
const PLATFORMS: Record<number, string> = {
  0: "Windows",
  1: "Windows",
  2: "Windows",
  0x8101: "macOS",
  0x8102: "iOS",
  0x8201: "Linux",
  0x8202: "Solaris",
  0x8203: "Android",
  0x8204: "PS3",
  0x8205: "NaCl",
  0x8206: "Fuchsia",
};
const WINDOWS_CODES: Record<number, string> = {
  0xc0000005: "EXCEPTION_ACCESS_VIOLATION",
  0xc000001d: "EXCEPTION_ILLEGAL_INSTRUCTION",
  0xc0000094: "EXCEPTION_INT_DIVIDE_BY_ZERO",
  0xc00000fd: "EXCEPTION_STACK_OVERFLOW",
  0x80000003: "EXCEPTION_BREAKPOINT",
  0xc0000409: "STATUS_STACK_BUFFER_OVERRUN",
  0xe06d7363: "CPP_EXCEPTION",
};
const MACH_EXCEPTIONS: Record<number, string> = {
  1: "EXC_BAD_ACCESS",
  2: "EXC_BAD_INSTRUCTION",
  3: "EXC_ARITHMETIC",
  4: "EXC_EMULATION",
  5: "EXC_SOFTWARE",
  6: "EXC_BREAKPOINT",
  10: "EXC_CRASH",
  11: "EXC_RESOURCE",
  12: "EXC_GUARD",
  0x0517a7ed: "SIMULATED",
};
const SIGNALS: Record<number, string> = {
  4: "SIGILL",
  5: "SIGTRAP",
  6: "SIGABRT",
  7: "SIGBUS",
  8: "SIGFPE",
  10: "SIGBUS",
  11: "SIGSEGV",
  13: "SIGPIPE",
  31: "SIGSYS",
};

const STREAM_EXCEPTION = 6;
const STREAM_SYSTEM_INFO = 7;

function utf16At(buf: Buffer, rva: number): string | null {
  if (rva + 4 > buf.length) return null;
  const bytes = buf.readUInt32LE(rva);
  if (bytes > 512 || rva + 4 + bytes > buf.length) return null;
  return buf.toString("utf16le", rva + 4, rva + 4 + bytes).replace(/\u0000/g, "");
}

/** Reads the header, system info and exception streams of a little-endian minidump; null for anything else. */
export function readMinidump(bytes: Uint8Array): MinidumpInfo | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 32 || buf.toString("latin1", 0, 4) !== "MDMP") return null;
  const streams = buf.readUInt32LE(8);
  const dirRva = buf.readUInt32LE(12);
  const info: MinidumpInfo = { timestamp: buf.readUInt32LE(20), streams, cpu: null, os: null, osVersion: null, exception: null };
  for (let i = 0; i < Math.min(streams, 256); i++) {
    const at = dirRva + i * 12;
    if (at + 12 > buf.length) break;
    const type = buf.readUInt32LE(at);
    const size = buf.readUInt32LE(at + 4);
    const rva = buf.readUInt32LE(at + 8);
    if (rva + size > buf.length) continue;
    if (type === STREAM_SYSTEM_INFO && size >= 32) {
      const arch = buf.readUInt16LE(rva);
      const [major, minor, build, platform, csd] = [
        buf.readUInt32LE(rva + 8),
        buf.readUInt32LE(rva + 12),
        buf.readUInt32LE(rva + 16),
        buf.readUInt32LE(rva + 20),
        buf.readUInt32LE(rva + 24),
      ];
      info.cpu = CPUS[arch] ?? `cpu ${arch}`;
      info.os = PLATFORMS[platform] ?? `platform ${platform}`;
      const servicePack = utf16At(buf, csd);
      info.osVersion = `${major}.${minor}.${build}${servicePack ? ` ${servicePack}` : ""}`;
    } else if (type === STREAM_EXCEPTION && size >= 32) {
      const threadId = buf.readUInt32LE(rva);
      const code = buf.readUInt32LE(rva + 8);
      const address = buf.readBigUInt64LE(rva + 24);
      info.exception = {
        code: `0x${code.toString(16).toUpperCase().padStart(8, "0")}`,
        name: null,
        address: `0x${address.toString(16).padStart(16, "0")}`,
        threadId,
      };
    }
  }
  if (info.exception) {
    const code = Number.parseInt(info.exception.code, 16);
    const names = info.os === "Windows" ? WINDOWS_CODES : info.os === "macOS" || info.os === "iOS" ? MACH_EXCEPTIONS : SIGNALS;
    info.exception.name = names[code] ?? null;
  }
  return info;
}
