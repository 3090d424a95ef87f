// The processing notes symbolication leaves on an event (`event.errors`), with Sentry's JavaScript event error types
// (getsentry/sentry src/sentry/models/eventerror.py: JS_MISSING_SOURCE "js_no_source", JS_INVALID_SOURCEMAP
// "js_invalid_source", JS_MISSING_SOURCES_CONTENT, JS_INVALID_SOURCEMAP_LOCATION, JS_NO_COLUMN, the fetch errors,
// and RESTRICTED_IP "restricted_ip" for a URL whose host is not a public address). A frame that cannot be mapped stays as it was sent; the note says why.

export type JsNoteType =
  | "js_no_source"
  | "js_invalid_source"
  | "js_missing_sources_content"
  | "js_invalid_sourcemap_location"
  | "js_no_column"
  | "js_too_large"
  | "js_fetch_timeout"
  | "js_invalid_http_code"
  | "js_generic_fetch_error"
  | "restricted_ip";

/** One note: the type, and the file (`url`) or the position in a map (`source`, `row`, `column`) it is about. */
export type JsNote = { type: JsNoteType; url?: string; source?: string; row?: number; column?: number; value?: string };

/** Collects an event's notes, each (type, place) once. */
export class NoteSink {
  private readonly seen = new Set<string>();
  readonly notes: JsNote[] = [];

  add(note: JsNote): void {
    const key = `${note.type}|${note.url ?? ""}|${note.source ?? ""}|${note.row ?? ""}|${note.column ?? ""}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.notes.push(note);
  }
}
