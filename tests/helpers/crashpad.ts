// Multipart bodies as Crashpad's uploader (HTTPMultipartBuilder) writes them, for the minidump and attachment endpoints.
import { randomBytes } from "node:crypto";

/** A multipart/form-data body as Crashpad's HTTPMultipartBuilder writes it. */
/** `encodedNames`: file names in RFC 5987's `filename*=UTF-8''…` form (any character, NUL included, percent-encoded). */
export function crashpadBody(
  fields: [string, string][],
  files: { field: string; filename: string; data: Buffer; type?: string }[],
  boundary = `---MultipartBoundary-${randomBytes(16).toString("hex")}---`,
  encodedNames = false,
) {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; ${encodedNames ? `filename*=UTF-8''${encodeURIComponent(f.filename)}` : `filename="${f.filename}"`}\r\nContent-Type: ${f.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
    );
    parts.push(f.data, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
