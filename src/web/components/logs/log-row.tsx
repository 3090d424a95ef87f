// One log line as a table row, and the table around the lines: rendered by the logs page on the server and by the
// live tail in the browser from the same props (no hooks, nothing server-only), so a line looks the same either way.
// A line's release and environment follow its message; its attributes open in a <details> element (no JavaScript
// needed), each value a link to the search for it.
import type { ReactNode } from "react";
import { LocaleLink } from "@/i18n/locale-link";
import type { StoredLog } from "@/storage/log-ports";

/** Labels with `#` for a count and `{pair}` for an attribute, filled in here (the browser has no message files). */
export type LogRowLabels = { time: string; level: string; message: string; trace: string; attributesOne: string; attributesOther: string; notes: string };

/**
 * Where the line's links go: the organization's trace pages (after the locale), and the project's logs page for
 * `key:value` searches (`searchHref`: its whole path, base path and locale included, for a plain link).
 */
export type LogLinks = { locale: string; searchHref: string; tracesPath: string };

/** A timestamp as `YYYY-MM-DD HH:MM:SS.mmm` (UTC): log lines are compared to the millisecond, in any language. */
export const logTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;

/**
 * What the page sends of a line: the application's attributes (the SDK's own `sentry.*` ones, about ten a line, stay in
 * the API: the row shows their release and environment), and the notes of its meta. A page of 50 lines with every
 * attribute was 140 kB of HTML and props, and its render most of the page's time.
 */
export const pageLine = ({ meta, attributes, ...l }: StoredLog): StoredLog => ({
  ...l,
  attributes: Object.fromEntries(Object.entries(attributes).filter(([k]) => !k.startsWith("sentry."))),
  meta: meta?.notes ? { notes: meta.notes } : null,
});

const valueText = (v: string | number | boolean) => (typeof v === "string" ? v : String(v));
/** A `key:value` search term, the value quoted when it holds spaces or quotes. */
export const pairTerm = (key: string, value: string) => `${key}:${/[\s"]/.test(value) || value === "" ? `"${value.replaceAll('"', "")}"` : value}`;

export function LogRow({ log, labels, links }: { log: StoredLog; labels: LogRowLabels; links: LogLinks }) {
  const attributes = Object.entries(log.attributes);
  const notes = log.meta?.notes ?? [];
  const origin = [log.release, log.environment].filter((v) => v !== null).join(" · ");
  return (
    <tr data-testid="log-row" data-log-id={log.id} data-level={log.level}>
      <td className="log-time">
        <time dateTime={log.timestamp}>{logTime(log.timestamp)}</time>
      </td>
      <td>
        <span className={`badge level-${log.level}`}>{log.level}</span>
      </td>
      <td className="wrap log-body">
        <span className="log-message" data-testid="log-message">
          {log.body}
        </span>
        {origin !== "" ? <span className="muted log-origin"> {origin}</span> : null}
        {attributes.length > 0 || notes.length > 0 ? (
          <details className="log-attributes">
            <summary>{(attributes.length === 1 ? labels.attributesOne : labels.attributesOther).replace("#", String(attributes.length))}</summary>
            <dl className="facts">
              {attributes.map(([key, a]) => {
                const term = pairTerm(key, valueText(a.value));
                const text = valueText(a.value) === "" ? '""' : valueText(a.value);
                return [
                  <dt key={`k-${key}`}>{key}</dt>,
                  <dd key={`v-${key}`}>
                    <a href={`${links.searchHref}?query=${encodeURIComponent(term)}`}>{text}</a>
                  </dd>,
                ];
              })}
              {notes.length > 0 ? [<dt key="notes">{labels.notes}</dt>, <dd key="notes-v">{notes.join("; ")}</dd>] : null}
            </dl>
          </details>
        ) : null}
      </td>
      <td className="log-trace">
        {log.traceId ? (
          <LocaleLink locale={links.locale} href={`${links.tracesPath}/${log.traceId}`} aria-label={`${labels.trace} ${log.traceId}`}>
            <code>{log.traceId.slice(0, 8)}</code>
          </LocaleLink>
        ) : (
          "—"
        )}
      </td>
    </tr>
  );
}

/** The table of lines: `tail` (new lines of the live tail) above the page's own rows (`children`, a <tbody>). */
export function LogTable({ labels, tail, children }: { labels: LogRowLabels; tail?: ReactNode; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className="table log-table" data-testid="log-table">
        <thead>
          <tr>
            <th scope="col">{labels.time}</th>
            <th scope="col">{labels.level}</th>
            <th scope="col">{labels.message}</th>
            <th scope="col">{labels.trace}</th>
          </tr>
        </thead>
        {tail}
        {children}
      </table>
    </div>
  );
}
