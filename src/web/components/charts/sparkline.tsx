// A sparkline rendered on the server as an inline SVG: no JavaScript, so an issue stream of 100 rows costs nothing
// on the client. Bars are scaled to the largest bucket; an empty series draws a flat baseline.
type Props = { values: number[]; label: string; width?: number; height?: number };

export function Sparkline({ values, label, width = 96, height = 24 }: Props) {
  const max = Math.max(0, ...values);
  const step = values.length > 0 ? width / values.length : width;
  const bar = Math.max(1, step - 1);
  return (
    <svg className="sparkline" role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <line x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} className="sparkline-base" />
      {max > 0
        ? values.map((v, i) => {
            if (v <= 0) return null;
            const h = Math.max(1, Math.round((v / max) * (height - 1)));
            return <rect key={i} x={(i * step).toFixed(2)} y={height - h} width={bar.toFixed(2)} height={h} />;
          })
        : null}
    </svg>
  );
}
