// multipart/form-data bodies of the upload routes (sentry-cli's chunk upload and legacy release files): read within a
// byte limit first, then parsed by the runtime's own form-data parser (undici); a body it cannot parse is a 400.
import "server-only";
import { AppError } from "../../core/errors";
import { readCappedBytes } from "./handler";

export type FormFile = { field: string; filename: string; data: Uint8Array };

export async function readMultipart(req: Request, limit: number): Promise<FormData> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new AppError("bad_request", "Expected a multipart/form-data body");
  const body = await readCappedBytes(req, limit);
  try {
    return await new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("bad_request", "The multipart/form-data body is malformed");
  }
}

/** The files of a form, in order, with their field names. */
export async function formFiles(form: FormData): Promise<FormFile[]> {
  const out: FormFile[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") continue;
    out.push({ field, filename: value.name, data: new Uint8Array(await value.arrayBuffer()) });
  }
  return out;
}

/** A text field, or null when absent; a file where text is expected is a 400. */
export function formText(form: FormData, field: string): string | null {
  const value = form.get(field);
  if (value === null) return null;
  if (typeof value !== "string") throw new AppError("bad_request", `${field} must be a text field`);
  return value;
}

export function formTexts(form: FormData, field: string): string[] {
  return form.getAll(field).map((v) => {
    if (typeof v !== "string") throw new AppError("bad_request", `${field} must be a text field`);
    return v;
  });
}
