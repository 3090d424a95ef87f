// One search param chosen from a list, as a GET form (no JavaScript needed) that keeps the page's other search params;
// a new choice starts at the first page, so the cursor is dropped. "All" submits an empty value, read as absent.
type Props = {
  name: string;
  label: string;
  allLabel: string;
  applyLabel: string;
  options: { value: string; label: string }[];
  /** The page's current search params (this one among them). */
  params: Record<string, string | string[] | undefined>;
  testId?: string;
};

export function FilterSelect({ name, label, allLabel, applyLabel, options, params, testId }: Props) {
  const current = typeof params[name] === "string" ? (params[name] as string) : "";
  // A chosen value the list lacks (no event names it yet) stays selectable, so the form shows what the page shows.
  const shown = current && !options.some((o) => o.value === current) ? [{ value: current, label: current }, ...options] : options;
  const kept = Object.entries(params).flatMap(([k, v]) =>
    k === name || k === "cursor" || v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => [k, x] as const),
  );
  const id = `filter-${name}`;
  return (
    <form method="get" className="filter-select" data-testid={testId}>
      {kept.map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={current}>
        <option value="">{allLabel}</option>
        {shown.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <button type="submit" className="button secondary">
        {applyLabel}
      </button>
    </form>
  );
}
