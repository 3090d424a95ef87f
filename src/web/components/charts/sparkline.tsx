// A sparkline as an inline SVG, drawn from the bucket counts: no chart library and no canvas, so the server renders
// it into the page's HTML and hydration only has to match it. Bars are scaled to the largest bucket; an empty series
// draws a flat baseline. All bars are one path (a rect per bar cost a stream page ~1.5 kB per row).
type Props = { values: number[]; label: string; width?: number; height?: number };

/** The bars as one SVG path: per non-zero bucket, a box from the baseline up, in whole and hundredth pixels. */
export function barsPath(values: number[], width: number, height: number): string {
  const max = Math.max(0, ...values);
  if (max <= 0) return "";
  const step = width / values.length;
  const bar = +Math.max(1, step - 1).toFixed(2);
  let d = "";
  values.forEach((v, i) => {
    if (v <= 0) return;
    const h = Math.max(1, Math.round((v / max) * (height - 1)));
    d += `M${+(i * step).toFixed(2)} ${height}v-${h}h${bar}v${h}z`;
  });
  return d;
}

export function Sparkline({ values, label, width = 96, height = 24 }: Props) {
  const d = barsPath(values, width, height);
  return (
    <svg className="sparkline" role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <line x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} className="sparkline-base" />
      {d ? <path d={d} className="sparkline-bars" /> : null}
    </svg>
  );
}
