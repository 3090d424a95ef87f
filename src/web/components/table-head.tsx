// A table's header row: one column header per label, then an unlabelled-looking actions column named for screen readers.
export function TableHead({ columns, actions }: { columns: string[]; actions?: string }) {
  return (
    <thead>
      <tr>
        {columns.map((h) => (
          <th key={h} scope="col">
            {h}
          </th>
        ))}
        {actions !== undefined ? <th scope="col" aria-label={actions} /> : null}
      </tr>
    </thead>
  );
}
