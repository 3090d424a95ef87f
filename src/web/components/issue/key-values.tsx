// A definition list of named values (user, contexts, request headers, frame variables); objects shown as JSON.
const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

export function KeyValues({ values, testId }: { values: Record<string, unknown> | [string, unknown][]; testId?: string }) {
  const rows = (Array.isArray(values) ? values : Object.entries(values)).filter(([, v]) => v !== null && v !== undefined && v !== "");
  return (
    <dl className="facts kv" data-testid={testId}>
      {rows.map(([k, v], i) => (
        <div key={`${k}-${i}`} className="kv-row">
          <dt>{k}</dt>
          <dd>
            <code>{text(v)}</code>
          </dd>
        </div>
      ))}
    </dl>
  );
}
