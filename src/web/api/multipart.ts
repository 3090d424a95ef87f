// multipart/form-data bodies of the upload routes (sentry-cli's chunk upload and legacy release files), read as a
// stream by busboy and handed over one whole part at a time: the next bytes of the body are read only when the caller
// asks for the next part, so a request never holds more than the part in hand and the one being read. Every limit is
// checked while reading. What is wrong gets a 4xx with a detail: no boundary, a truncated body, a part without a
// name, a part header over busboy's 16 KiB, too many files or fields (400); a part or body over its limit (413, or
// the caller's error); a client that stops sending (408). Once the caller stops early (a refused part), the rest of
// the body is read and dropped within the same limits, so the client gets its answer instead of a reset connection.
import Busboy from "busboy";
import { INGEST_LIMITS } from "../../config/limits";
import { AppError } from "../../core/errors";
import { bodyChunks } from "./body-chunks";

export type MultipartLimits = {
  /** bytes; the body as sent. */
  maxBodyBytes: number;
  /** file parts; one more is refused with `tooManyFiles`. */
  maxFiles: number;
  /** bytes; one file part, refused beyond with `fileTooLarge`. */
  maxFileBytes: number;
  /** text fields (0: none is expected). */
  maxFields: number;
  /** bytes; one text field. */
  maxFieldBytes: number;
  /** milliseconds without a byte from the client before the request is answered 408. */
  idleTimeoutMs: number;
  tooManyFiles: () => AppError;
  fileTooLarge: () => AppError;
};

export type MultipartPart = { kind: "file"; field: string; filename: string; data: Uint8Array } | { kind: "field"; field: string; value: string };

const malformed = (why: string) => new AppError("bad_request", `The multipart/form-data body is malformed: ${why}`);

/**
 * The parts of a multipart/form-data request, in order; nothing is read before the first part is asked for, so the
 * caller checks access and quotas first. Throws AppError as described above.
 */
export async function* readMultipart(req: Request, limits: MultipartLimits): AsyncGenerator<MultipartPart, void, undefined> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new AppError("bad_request", "Expected a multipart/form-data body");
  if (Number(req.headers.get("content-length") ?? 0) > limits.maxBodyBytes)
    throw new AppError("payload_too_large", `Request body is larger than ${limits.maxBodyBytes} bytes`);
  let bb: Busboy.Busboy;
  try {
    // One byte over each limit: busboy flags a value that reaches its limit, even one exactly that long.
    bb = Busboy({
      headers: { "content-type": type },
      limits: { files: limits.maxFiles, fileSize: limits.maxFileBytes + 1, fields: limits.maxFields, fieldSize: limits.maxFieldBytes + 1 },
    });
  } catch {
    throw malformed("no boundary in its Content-Type");
  }

  const ready: MultipartPart[] = [];
  let failure: AppError | null = null;
  let closed = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const fail = (err: AppError) => {
    failure ??= err;
    notify();
  };

  bb.on("file", (name, stream, info) => {
    if (!name) {
      stream.resume();
      return fail(malformed("a part has no name"));
    }
    let chunks: Buffer[] = [];
    stream.on("limit", () => {
      chunks = [];
      fail(limits.fileTooLarge());
    });
    stream.on("data", (chunk: Buffer) => {
      if (!stream.truncated) chunks.push(chunk);
    });
    // busboy ends a file cut short with an error on its stream, and reports the body's error itself.
    stream.on("error", () => fail(malformed("unexpected end of file")));
    stream.on("end", () => {
      if (!stream.truncated) ready.push({ kind: "file", field: name, filename: info.filename ?? "", data: Buffer.concat(chunks) });
      chunks = [];
      notify();
    });
  });
  bb.on("field", (name, value, info) => {
    if (!name) return fail(malformed("a part has no name"));
    if (info.valueTruncated) return fail(new AppError("payload_too_large", `The form field ${name.slice(0, 60)} is longer than ${limits.maxFieldBytes} bytes`));
    ready.push({ kind: "field", field: name, value });
    notify();
  });
  bb.on("filesLimit", () => fail(limits.tooManyFiles()));
  bb.on("fieldsLimit", () =>
    fail(new AppError("bad_request", limits.maxFields === 0 ? "Unexpected form field: send files only" : `More than ${limits.maxFields} form fields`)),
  );
  bb.on("error", (err: Error) => fail(malformed(err.message.replace(/^Multipart: /, "").toLowerCase())));
  bb.on("close", () => {
    closed = true;
    notify();
  });

  // The whole body within the intake's pace (INGEST_LIMITS.bodyDeadline: a minute plus a second per 64 KiB it declares,
  // or may bring): a byte every few seconds never idles, and held the upload for Node's 5-minute request timeout.
  const declared = Number(req.headers.get("content-length"));
  const size = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, limits.maxBodyBytes) : limits.maxBodyBytes;
  const { wholeGraceMs, minBytesPerSecond } = INGEST_LIMITS.bodyDeadline;
  const body = bodyChunks(req, limits.maxBodyBytes, limits.idleTimeoutMs, wholeGraceMs + (size / minBytesPerSecond) * 1000);
  let ended = false;
  const write = (chunk: Uint8Array) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      bb.write(chunk, () => resolve());
    });
  try {
    for (;;) {
      const part = ready.shift();
      if (part) {
        yield part;
        continue;
      }
      if (failure) throw failure;
      if (closed) return;
      if (ended) {
        await new Promise<void>((resolve) => (wake = resolve));
        continue;
      }
      const next = await body.next();
      if (next.done) {
        ended = true;
        bb.end();
      } else await write(next.value);
    }
  } finally {
    bb.removeAllListeners("file");
    bb.on("error", () => undefined);
    bb.destroy();
    // The caller stopped before the end (or a part was refused): read and drop the rest within the same limits, so
    // that the client gets the answer rather than a connection closed under its upload.
    if (!ended) {
      try {
        for await (const _ of body);
      } catch {
        // over the limit or stalled: the answer goes out and the connection closes
      }
    }
  }
}

/** The file parts only, as they are read; a text field is a 400. */
export async function* fileParts(parts: AsyncIterable<MultipartPart>): AsyncGenerator<Extract<MultipartPart, { kind: "file" }>> {
  for await (const part of parts) {
    if (part.kind !== "file") throw new AppError("bad_request", `Unexpected form field ${part.field.slice(0, 60)}: send files only`);
    yield part;
  }
}

/** The text fields of parts read so far, by name; a file where text is expected is a 400. */
export function formTexts(parts: MultipartPart[], field: string): string[] {
  return parts
    .filter((p) => p.field === field)
    .map((p) => {
      if (p.kind !== "field") throw new AppError("bad_request", `${field} must be a text field`);
      return p.value;
    });
}

/** One text field, or null when absent; given twice is a 400. */
export function formText(parts: MultipartPart[], field: string): string | null {
  const values = formTexts(parts, field);
  if (values.length > 1) throw new AppError("bad_request", `${field} is given more than once`);
  return values[0] ?? null;
}
