// What the digest could not process in the event as sent (`event.errors`: normalization's and symbolication's
// notes, in Sentry's event error types), one sentence each in the reader's language.
import { getTranslations } from "next-intl/server";

type Note = Record<string, unknown> & { type: string };

const KNOWN = new Set([
  "js_no_source",
  "js_invalid_source",
  "js_missing_sources_content",
  "js_invalid_sourcemap_location",
  "js_no_column",
  "js_too_large",
  "js_fetch_timeout",
  "js_invalid_http_code",
  "js_generic_fetch_error",
  "restricted_ip",
  "invalid_data",
  "invalid_attribute",
  "missing_attribute",
  "value_too_long",
  "future_timestamp",
  "past_timestamp",
  "clock_drift",
]);

const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");

/** The event's notes that have a type, as stored. */
export function processingNotes(data: Record<string, unknown>): Note[] {
  return (Array.isArray(data.errors) ? data.errors : []).filter((e): e is Note => !!e && typeof e === "object" && typeof (e as Note).type === "string");
}

export async function ProcessingNotes({ notes }: { notes: Note[] }) {
  const t = await getTranslations("issueDetail.processing");
  if (notes.length === 0) return null;
  return (
    <section className="card processing-notes" aria-labelledby="processing-title" data-testid="processing-notes">
      <h2 id="processing-title">{t("title")}</h2>
      <p className="muted">{t("intro")}</p>
      <ul>
        {notes.map((n, i) => {
          const values = {
            url: text(n.url),
            source: text(n.source),
            row: text(n.row),
            column: text(n.column),
            name: text(n.name),
            value: text(n.value),
            type: n.type,
          };
          return (
            <li key={i} data-testid="processing-note" data-type={n.type}>
              {KNOWN.has(n.type) ? t(n.type as "js_no_source", values) : t("other", values)}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
