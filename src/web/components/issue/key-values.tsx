// A definition list of named values (user, contexts, request headers, frame variables); objects shown as JSON.
const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
/** Relay's replacement texts ([Filtered], [ip], [email], [creditcard], …): the value was scrubbed (issue 18; the page's "Scrubbed data" says by which rule). */
const SCRUBBED = /\[(Filtered|ip|email|creditcard|imei|mac|uuid|iban|pemkey|auth|us-ssn|user|password|redacted)\]/;

export function KeyValues({ values, testId }: { values: Record<string, unknown> | [string, unknown][]; testId?: string }) {
  const rows = (Array.isArray(values) ? values : Object.entries(values)).filter(([, v]) => v !== null && v !== undefined && v !== "");
  return (
    <dl className="facts kv" data-testid={testId}>
      {rows.map(([k, v], i) => (
        <div key={`${k}-${i}`} className="kv-row">
          <dt>{k}</dt>
          <dd>
            <code
              className={typeof v === "string" && SCRUBBED.test(v) ? "scrubbed" : undefined}
              data-scrubbed={typeof v === "string" && SCRUBBED.test(v) ? "" : undefined}
            >
              {text(v)}
            </code>
          </dd>
        </div>
      ))}
    </dl>
  );
}
